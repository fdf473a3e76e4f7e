#!/bin/sh
# The same preset mixed three ways, stacked: srgb on top, linear, then oklab
# (docs/colour.md's picture). Needs a release build and ffmpeg.
#
#   Scripts/mixing-picture.sh [PRESET] [TIME] [OUT]
set -eu
BIN=${BIN:-.build/release/fluidgradient}
PRESET=${1:-neon}
TIME=${2:-1}
OUT=${3:-docs/mixing.png}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mixing in srgb linear oklab; do
    "$BIN" render --preset "$PRESET" --size 560x200 --time "$TIME" --mixing "$mixing" --quiet -o "$work/$mixing.png"
done
ffmpeg -v error -y -i "$work/srgb.png" -i "$work/linear.png" -i "$work/oklab.png" \
    -filter_complex 'vstack=inputs=3' -frames:v 1 "$work/stack.png"
mv "$work/stack.png" "$OUT"
ls -l "$OUT"
