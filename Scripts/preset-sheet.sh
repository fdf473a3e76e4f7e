#!/usr/bin/env bash
# Renders a contact sheet: one row per preset, one column per instant of its loop.
#   Scripts/preset-sheet.sh OUT.png [PRESET...]    (default: every built-in preset)
# Needs a release build and ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1; shift
binary=.build/release/fluidgradient
presets=("$@")
[ ${#presets[@]} -gt 0 ] || mapfile -t presets < <("$binary" presets list | cut -d' ' -f1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=()
for preset in "${presets[@]}"; do
    for time in 0 2 4 6 8; do
        "$binary" render --preset "$preset" --size 256x144 --time "$time" -o "$work/$preset-$time.png"
    done
    ffmpeg -v error -y -i "$work/$preset-0.png" -i "$work/$preset-2.png" -i "$work/$preset-4.png" \
        -i "$work/$preset-6.png" -i "$work/$preset-8.png" -filter_complex hstack=inputs=5 "$work/row-$preset.png"
    rows+=(-i "$work/row-$preset.png")
done
if [ ${#presets[@]} -eq 1 ]; then cp "$work/row-${presets[0]}.png" "$out"; else
    ffmpeg -v error -y "${rows[@]}" -filter_complex vstack=inputs=${#presets[@]} "$out"; fi
echo "$out: ${presets[*]}"
