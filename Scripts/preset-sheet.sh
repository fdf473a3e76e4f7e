#!/usr/bin/env bash
# Renders a contact sheet of presets.
#   Scripts/preset-sheet.sh OUT.png [PRESET...]             one row per preset, one column per
#                                                           instant of its loop (0, 2, 4, 6, 8 s)
#   Scripts/preset-sheet.sh --grid COLUMNS OUT.png [PRESET...]
#                                                           each preset one second in, 240x135,
#                                                           COLUMNS to a row: docs/presets.png is
#                                                           `--grid 7 docs/presets.png`
# Default: every built-in preset. Needs a release build and ffmpeg. Grain is drawn as the
# engine draws it at that size: one pixel a cell.
set -euo pipefail
cd "$(dirname "$0")/.."
columns=0
if [ "${1:-}" = "--grid" ]; then columns=$2; shift 2; fi
out=$1; shift
binary=.build/release/fluidgradient
presets=("$@")
[ ${#presets[@]} -gt 0 ] || mapfile -t presets < <("$binary" presets list | cut -d' ' -f1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$columns" -gt 0 ]; then
    inputs=() layout=()
    for index in "${!presets[@]}"; do
        "$binary" render --preset "${presets[$index]}" --size 240x135 --time 1 -o "$work/$index.png"
        inputs+=(-i "$work/$index.png")
        layout+=("$((index % columns * 240))_$((index / columns * 135))")
    done
    count=${#presets[@]}
    rows=$(((count + columns - 1) / columns))
    ffmpeg -v error -y "${inputs[@]}" -filter_complex \
        "xstack=inputs=$count:layout=$(IFS='|'; echo "${layout[*]}"):fill=#101010,crop=$((columns * 240)):$((rows * 135)):0:0" \
        "$out"
    echo "$out: ${presets[*]}"
    exit 0
fi

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
