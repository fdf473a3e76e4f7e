#!/usr/bin/env bash
# Measures the render service's targets of BENCHMARKS.md (issue 26) on loopback with wrk:
#
#   1  640x360 PNG frames of aurora, each a new instant (cache misses), against the frames
#      per second `fluidgradient render` reaches for the same PNG frames, alternated RUNS times;
#   2  one frame again and again (cache hits): 304 with If-None-Match, and 200 without;
#   3  overload: 4 x the concurrency limit (renders + waiting) for 30 s, every answer counted
#      and the server's resident memory sampled each second;
#   5  the render CLI's release build from a clean clone, this commit against BASE.
#
#   Scripts/studio-benchmark.sh                 rows 1 to 3, RUNS=3
#   RUNS=3 BASE=a446a7d ROWS="5" Scripts/studio-benchmark.sh
#
# Row 4 (the studio preview in Chromium) is Scripts/studio-preview-bench.py. Needs wrk
# (apt-get install wrk). Builds both release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
ROWS=${ROWS:-"1 2 3"}
PORT=${PORT:-18426}
swift build -c release --product fluidgradient >/dev/null
swift build -c release --package-path Studio --product fluidgradient-studio >/dev/null
BIN=$PWD/.build/release/fluidgradient
STUDIO=$PWD/Studio/.build/release/fluidgradient-studio
WORK=$(mktemp -d /tmp/fluidgradient-studio-bench.XXXXXX)
SERVER=
stop_server() { [ -z "$SERVER" ] || { kill -TERM "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; }; SERVER=; }
trap 'stop_server; rm -rf "$WORK"' EXIT

# shellcheck source=Scripts/timing.sh
source Scripts/timing.sh
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Starts the service with extra options and waits until it answers.
start_server() {
    "$STUDIO" --port "$PORT" "$@" >"$WORK/server.log" 2>&1 &
    SERVER=$!
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$PORT/v1/presets" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "the service did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}

# aurora with its size set to 640x360, as a preset file: the frames the service renders for
# it at 640x360 are the ones `render --preset FILE` writes.
"$BIN" presets show aurora --json \
    | python3 -c 'import json, sys; p = json.load(sys.stdin); p["size"] = "640x360"; print(json.dumps(p))' \
    >"$WORK/aurora-640x360.json"

# Posts that preset as a design; prints its frame URL path up to the instant.
frame_base() {
    local design
    design=$(curl -sf -H 'Content-Type: application/json' --data-binary @"$WORK/aurora-640x360.json" \
        "http://127.0.0.1:$PORT/v1/designs" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
    echo "/v1/designs/$design/frames/640x360"
}

# wrk's requests per second, p99 in ms and status counts from its output file.
wrk_field() { sed -n "s|^ *$1 *||p" "$2" | head -1; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $RUNS runs per row, medians"
echo

for row in $ROWS; do
case $row in
1)
    start_server
    base=$(frame_base)
    cli="" service=""
    for ((i = 0; i < RUNS; i++)); do
        rm -rf "$WORK/frames" && mkdir "$WORK/frames"
        seconds=$(wall "$BIN" render --preset "$WORK/aurora-640x360.json" --frames 600 -o "$WORK/frames/%05d.png")
        cli+=" $(ratio 600 "$seconds")"
        FRAME_BASE=$base MODE=new RUN_OFFSET=$((i * 1000)) wrk -t 2 -c 4 -d 10s -s Scripts/wrk/frames.lua \
            "http://127.0.0.1:$PORT" >"$WORK/wrk1.txt"
        service+=" $(wrk_field Requests/sec: "$WORK/wrk1.txt")"
        echo "   run $((i + 1)): render $(echo "$cli" | awk '{ print $NF }') fps, service $(wrk_field Requests/sec: "$WORK/wrk1.txt") req/s ($(wrk_field statuses: "$WORK/wrk1.txt"))"
    done
    stop_server
    A=$(echo "$service" | median); B=$(echo "$cli" | median)
    echo "row 1  640x360 PNG cache misses: service $A frames/s vs render $B fps -> $(ratio "$A" "$B") (target >= 0.80)"
    ;;
2)
    start_server
    url="http://127.0.0.1:$PORT$(frame_base)/1.000.png"
    etag=$(curl -sf -D - -o /dev/null "$url" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
    MODE=same IF_NONE_MATCH=$etag wrk -t 2 -c 32 -d 10s --latency -s Scripts/wrk/frames.lua "$url" >"$WORK/wrk2a.txt"
    MODE=same wrk -t 2 -c 32 -d 10s --latency -s Scripts/wrk/frames.lua "$url" >"$WORK/wrk2b.txt"
    stop_server
    for run in a b; do
        what=$([ $run = a ] && echo "304 (If-None-Match)" || echo "200 from the cache ")
        echo "row 2  $what: $(wrk_field Requests/sec: "$WORK/wrk2$run.txt") req/s, p99 $(wrk_field p99_ms: "$WORK/wrk2$run.txt") ms ($(wrk_field statuses: "$WORK/wrk2$run.txt")) (target >= 5000 req/s, p99 <= 20 ms)"
    done
    ;;
3)
    # The default limit on 2 cores is 2 renders + 8 waiting; 40 connections is 4 x that. The
    # frame cache is held to 32 MB, so that its filling is not mistaken for growth.
    start_server --cache-megabytes 32
    base=$(frame_base)
    rss() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status"; }
    samples="$(rss)"
    FRAME_BASE=$base MODE=new wrk -t 2 -c 40 -d 30s -s Scripts/wrk/frames.lua "http://127.0.0.1:$PORT" >"$WORK/wrk3.txt" &
    load=$!
    for _ in $(seq 30); do sleep 1; samples+=" $(rss)"; done
    wait $load
    samples+=" $(rss)"
    stop_server
    echo "row 3  overload, 40 connections for 30 s: $(wrk_field Requests/sec: "$WORK/wrk3.txt") req/s, $(wrk_field statuses: "$WORK/wrk3.txt"); socket errors: $(wrk_field 'Socket errors:' "$WORK/wrk3.txt" || true)"
    echo "       resident MiB each second: $samples"
    ;;
5)
    : "${BASE:?give BASE=COMMIT to compare the render CLI build against}"
    # A clean clone each time; the build's time is read only if it succeeded.
    build() {
        rm -rf "$WORK/clone" && git clone -q "$PWD" "$WORK/clone" && git -C "$WORK/clone" checkout -q "$1"
        local seconds
        seconds=$(wall swift build -c release --package-path "$WORK/clone" --product fluidgradient)
        [ -x "$WORK/clone/.build/release/fluidgradient" ] || { echo "the build at $1 failed" >&2; exit 1; }
        echo "$seconds"
    }
    ours="" theirs=""
    head=$(git rev-parse HEAD)
    for ((i = 0; i < RUNS; i++)); do
        ours+=" $(build "$head")"
        theirs+=" $(build "$BASE")"
    done
    A=$(echo "$ours" | median); B=$(echo "$theirs" | median)
    echo "row 5  render CLI release build from a clean clone: $A s at $(git rev-parse --short HEAD) vs $B s at $BASE -> $(ratio "$A" "$B")x (target <= 1, within noise)"
    ;;
esac
done
