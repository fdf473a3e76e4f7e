#!/usr/bin/env bash
# Measures targets 1 to 3 of the studio's render service (issue 26) on this machine, on
# loopback, side by side in one run:
#   1. cache misses: 640x360 PNG frames of aurora (at that size), each a new instant, with
#      4 connections, against the frames per second of `fluidgradient render` for the same
#      preset and size (measured before and after, the mean is the reference);
#   2. cache hits: one frame again with 8 connections, as 200 and as 304 (If-None-Match);
#   3. overload: 4x the concurrency limit (render threads + waiting line = 5 x cores) of
#      cache misses for 30 s: the statuses (200 or 503 only) and the server's RSS.
#
#   Scripts/bench-studio.sh [SECONDS]     (each measurement of 1 and 2; default 20)
#
# Needs wrk (Debian: apt-get install wrk). Builds both release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}

swift build -c release --product fluidgradient >/dev/null
swift build -c release --package-path Studio --product fluidgradient-studio >/dev/null
cli=$(swift build -c release --show-bin-path)/fluidgradient
studio=$(swift build -c release --package-path Studio --show-bin-path)/fluidgradient-studio
work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$cli" presets show aurora --json | python3 -c '
import json, sys
preset = json.load(sys.stdin)
preset["size"] = "640x360"
print(json.dumps(preset))' >"$work/preset.json"

cli_fps() {
    rm -rf "$work/frames" && mkdir "$work/frames"
    local start end
    start=$(date +%s.%N)
    "$cli" render --preset "$work/preset.json" --frames 300 -o "$work/frames/%05d.png" --quiet
    end=$(date +%s.%N)
    python3 -c "print(f'{300 / ($end - $start):.1f}')"
}

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$studio" --port "$port" >"$work/server.log" 2>&1 &
server=$!
base=http://127.0.0.1:$port
for _ in $(seq 100); do curl -sf -o /dev/null "$base/v1/presets" && break; sleep 0.1; done
id=$(curl -sf -H 'Content-Type: application/json' --data-binary @"$work/preset.json" "$base/v1/designs" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
frames=$base/v1/designs/$id/frames/640x360/

echo "== 1. cache misses (640x360 PNG, each a new instant)"
before=$(cli_fps)
wrk -t2 -c4 -d"${seconds}s" -s Scripts/studio-misses.lua "$frames" | tee "$work/misses.txt" | grep -E 'Requests/sec|status'
after=$(cli_fps)
served=$(awk '/Requests\/sec/ {print $2}' "$work/misses.txt")
python3 -c "cli = ($before + $after) / 2; print(f'fluidgradient render: {$before} and {$after} fps; service: {$served} frames/s = {100 * $served / cli:.0f}% of {cli:.1f}')"

echo "== 2. cache hits (one frame again, 8 connections)"
one=${frames}1.5.png
tag=$(curl -sf -D - -o /dev/null "$one" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r')
echo "-- 200 from the cache"
wrk -t2 -c8 -d"${seconds}s" --latency "$one" | grep -E 'Requests/sec|  50%|  99%|Non-2xx'
echo "-- 304 (If-None-Match)"
wrk -t2 -c8 -d"${seconds}s" --latency -H "If-None-Match: $tag" "$one" | grep -E 'Requests/sec|  50%|  99%'

cores=$(nproc)
connections=$((4 * 5 * cores))
echo "== 3. overload: $connections connections of cache misses for 30 s (limit $((5 * cores)))"
echo "RSS before: $(ps -o rss= -p "$server") KiB"
wrk -t2 -c"$connections" -d30s -s Scripts/studio-misses.lua "$frames" | grep -E 'Requests/sec|status'
echo "RSS after 30 s: $(ps -o rss= -p "$server") KiB"
wrk -t2 -c"$connections" -d30s -s Scripts/studio-misses.lua "$frames" | grep -E 'Requests/sec|status'
echo "RSS after 60 s: $(ps -o rss= -p "$server") KiB"

kill -TERM "$server"
status=0
wait "$server" || status=$?
server=
echo "server exit status after SIGTERM: $status"
