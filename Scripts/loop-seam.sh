#!/usr/bin/env bash
# Measures each preset's loop seam as DESIGN section 6 states it: a 10 s loop at
# 160x90, 30 fps, 16-bit, dither off; the step between consecutive frames is the
# mean absolute change over all channels and pixels; the seam step is last frame ->
# frame 0, and its ratio is seam / median of the loop's steps.
#   Scripts/loop-seam.sh [BINARY] [PRESET...]   (default: the release build, every preset)
# Needs python3 (faster with numpy).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/fluidgradient}
shift || true
presets=("$@")
[ ${#presets[@]} -gt 0 ] || mapfile -t presets < <("$binary" presets list | cut -d' ' -f1)
printf '%-10s %10s %10s %7s\n' preset seam median ratio
for preset in "${presets[@]}"; do
    "$binary" render --preset "$preset" --size 160x90 --fps 30 --duration 10 --loop --depth 16 --dither off \
        --pixel-format rgba64le --quiet -o - | python3 -c '
import array, statistics, sys
name, size = sys.argv[1], 160 * 90 * 4
data = array.array("H", sys.stdin.buffer.read())
frames = [data[i:i + size] for i in range(0, len(data), size)]
try:
    import numpy
    frames = [numpy.array(frame, dtype=numpy.int64) for frame in frames]
    def step(a, b): return float(numpy.abs(a - b).sum()) / size
except ImportError:
    def step(a, b): return sum(abs(x - y) for x, y in zip(a, b)) / size
steps = [step(frames[i - 1], frames[i]) for i in range(1, len(frames))]
seam, median = step(frames[-1], frames[0]), statistics.median(steps)
print(f"{name:<10} {seam:10.2f} {median:10.2f} {seam / median:7.3f}")
' "$preset"
done
