#!/usr/bin/env bash
# A bounded fuzz run of the studio's HTTP API from its OpenAPI document, with schemathesis
# from PyPI (installed into .build-browser/fuzz-venv on the first run).
#
#   Scripts/fuzz-api.sh [EXAMPLES] [SECONDS]
#
# Builds the release fluidgradient-studio, starts it on a free loopback port (one job at a
# time, one queued, so that the jobs the fuzzer starts stay cheap), and runs
# `schemathesis run Studio/openapi.json` with the checks not_a_server_error (no 5xx but the
# documented 503, allowed through .build-browser/fuzz-api/schemathesis.toml) and response_schema_conformance (every body as the document says),
# EXAMPLES examples per operation (default 30), cut after SECONDS (default 600). The server
# is stopped with SIGTERM afterwards and must exit 0 and leave no job directory.
# Exit status: schemathesis' (1 for a finding), 124 when cut, 3 when the server misbehaved.
# The server's log and schemathesis' report are in .build-browser/fuzz-api/.
set -euo pipefail
cd "$(dirname "$0")/.."

examples=${1:-30}
seconds=${2:-600}
venv=.build-browser/fuzz-venv
work=.build-browser/fuzz-api
mkdir -p "$work"
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q " 4.32.5$"; then
    python3 -m venv "$venv"
    # Pinned: the configuration file and the command line below are those of 4.32.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "schemathesis==4.32.5"
fi

swift build -c release --package-path Studio --product fluidgradient-studio
binary=$(swift build -c release --package-path Studio --show-bin-path)/fluidgradient-studio
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
tmp=$(mktemp -d)
TMPDIR=$tmp "$binary" --port "$port" --max-jobs 1 --max-queued-jobs 1 >"$work/server.log" 2>&1 &
server=$!
stop_server() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null
}
trap 'stop_server || true; rm -rf "$tmp"' EXIT
for _ in $(seq 300); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/v1/presets" && break
    sleep 0.1
done

# The documented 503 (busy, queue full, deadline) is no finding; every other 5xx is.
cat >"$work/schemathesis.toml" <<'TOML'
[checks.not_a_server_error]
expected-statuses = ["2xx", "3xx", "4xx", "503"]
TOML
# Run from $work, where schemathesis keeps its .schemathesis/ cache.
status=0
root=$PWD
(cd "$work" && timeout "$seconds" "$root/$venv/bin/schemathesis" --config-file schemathesis.toml run \
    "$root/Studio/openapi.json" --url "http://127.0.0.1:$port" \
    --checks not_a_server_error,response_schema_conformance --max-examples "$examples" \
    --request-timeout 30 --seed 26 --report junit --report-dir .) || status=$?

server_status=0
stop_server || server_status=$?
trap 'rm -rf "$tmp"' EXIT
left=$(find "$tmp" -mindepth 1 | head -5)
if [ "$server_status" -ne 0 ] || [ -n "$left" ]; then
    echo "fuzz-api: the server exited with status $server_status after SIGTERM; left behind: ${left:-nothing}" >&2
    exit 3
fi
exit "$status"
