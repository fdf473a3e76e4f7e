#!/usr/bin/env bash
# Measures issue 36's grain targets for BENCHMARKS.md ("Grain"):
#
#   row 1  the engine's cost of grain at 1080p: BENCHMARKS row 1's command, `bench --frames
#          600`, with and without --grain 0.08, alternated RUNS times (wall and user CPU
#          seconds, medians)
#   row 2  a 10 s 1080p60 bundle of each grain preset against the same preset without grain:
#          the loops' bytes, and the grain files' bytes
#   files  single files at 1080p, 10 s: .mp4 and .webm with the grain baked in (encoded at the
#          full size, as --encode-size auto keeps it with grain) against the same without
#          grain (at auto's smaller size)
#
#   Scripts/grain-benchmark.sh                    every row, RUNS=5
#   RUNS=9 ROWS="1" Scripts/grain-benchmark.sh
#   BIN=/path/to/fluidgradient ROWS=files PRESETS=print EXTS=mp4 Scripts/grain-benchmark.sh
#
# Rows 3 and 4 (Chromium, determinism) are tests: BrowserTests/test_grain.py and the Grain
# suites. Needs ffmpeg; builds the release binary first unless BIN names one; scratch files
# under /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
ROWS=${ROWS:-"1 2 files"}
PRESETS=${PRESETS:-"print velvet"}
EXTS=${EXTS:-"mp4 webm"}
if [ -z "${BIN:-}" ]; then
    swift build -c release --product fluidgradient >/dev/null
    BIN=$PWD/.build/release/fluidgradient
fi
WORK=$(mktemp -d /tmp/fluidgradient-grain.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
LOOP=(--size 1920x1080 --fps 60 --duration 10 --loop --quiet)

# shellcheck source=Scripts/timing.sh
source Scripts/timing.sh
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# User CPU seconds of a command (its output discarded).
user() { /usr/bin/time -f %U "$@" 2>&1 >/dev/null | tail -1; }
bytes() { stat -c %s "$1"; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg); $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
for row in $ROWS; do
case $row in
1)
    walls=("" ""); users=("" "")
    for ((i = 0; i < RUNS; i++)); do
        walls[0]+=" $(wall "$BIN" bench --frames 600)"
        walls[1]+=" $(wall "$BIN" bench --frames 600 --grain 0.08)"
        users[0]+=" $(user "$BIN" bench --frames 600)"
        users[1]+=" $(user "$BIN" bench --frames 600 --grain 0.08)"
    done
    w0=$(echo "${walls[0]}" | median); w1=$(echo "${walls[1]}" | median)
    u0=$(echo "${users[0]}" | median); u1=$(echo "${users[1]}" | median)
    echo "row 1  1080p, 600 dithered RGBA frames: without grain $w0 s wall ($u0 s user), with --grain 0.08 $w1 s ($u1 s) -> $(ratio "$w1" "$w0")x wall, $(ratio "$u1" "$u0")x user (target <= 1.10x)"
    ;;
2)
    for preset in $PRESETS; do
        "$BIN" render --preset "$preset" "${LOOP[@]}" --bundle "$WORK/$preset-grain"
        "$BIN" render --preset "$preset" "${LOOP[@]}" --grain 0 --bundle "$WORK/$preset-plain"
        for loop in loop-av1.mp4 loop-hevc.mp4 loop-vp9.webm loop-h264.mp4; do
            a=$(bytes "$WORK/$preset-grain/$loop"); b=$(bytes "$WORK/$preset-plain/$loop")
            echo "row 2  $preset $loop: with grain $a bytes, without $b -> $(ratio "$a" "$b")x (target within 5%)"
        done
        grain=0
        for file in "$WORK/$preset-grain"/grain*.png; do
            echo "row 2  $preset $(basename "$file"): $(bytes "$file") bytes"
            grain=$((grain + $(bytes "$file")))
        done
        echo "row 2  $preset grain files together: $grain bytes (target <= 200 KB)"
    done
    ;;
files)
    for preset in $PRESETS; do
        for ext in $EXTS; do
            "$BIN" render --preset "$preset" "${LOOP[@]}" -o "$WORK/$preset-grain.$ext"
            "$BIN" render --preset "$preset" "${LOOP[@]}" --grain 0 -o "$WORK/$preset-plain.$ext"
            size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x "$WORK/$preset-plain.$ext")
            a=$(bytes "$WORK/$preset-grain.$ext"); b=$(bytes "$WORK/$preset-plain.$ext")
            echo "files  $preset .$ext, 10 s 1080p60: grain baked in at 1920x1080 $a bytes; without grain at $size $b bytes -> $(ratio "$a" "$b")x"
        done
    done
    ;;
esac
done
