#!/usr/bin/env bash
# Measures the performance table of BENCHMARKS.md: each row against its baseline,
# interleaved in one run (so machine noise hits both), as medians and ratios.
#
#   Scripts/benchmark.sh            all rows, 3 runs each
#   RUNS=5 ROWS="1 3" Scripts/benchmark.sh
#
# Needs ffmpeg. Builds the release binary first; writes scratch files under /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
ROWS=${ROWS:-"1 2 3 4 5 6 7 8"}
swift build -c release --product fluidgradient >/dev/null
BIN=$PWD/.build/release/fluidgradient
WORK=$(mktemp -d /tmp/fluidgradient-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# shellcheck source=Scripts/timing.sh
source Scripts/timing.sh
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# Runs two commands alternately RUNS times; sets A and B to their median seconds.
pair() {
    local as="" bs="" i
    for ((i = 0; i < RUNS; i++)); do
        as+=" $(eval "$1")"
        bs+=" $(eval "$2")"
    done
    A=$(echo "$as" | median)
    B=$(echo "$bs" | median)
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $RUNS runs per row, medians"
echo

for row in $ROWS; do
case $row in
1)
    pair "wall $BIN bench --frames 600" \
         "wall ffmpeg -v error -f lavfi -i gradients=s=1920x1080:r=60:d=10:n=6:type=radial:speed=0.02,format=rgba,gblur=sigma=188.4:steps=3 -f null -"
    echo "row 1  1080p engine, 600 dithered RGBA frames: $(ratio 600 "$A") fps vs ffmpeg gradients+gblur $(ratio 600 "$B") fps -> $(ratio "$B" "$A")x (target >= 10x)"
    ;;
2)
    pair "wall $BIN bench --size 3840x2160 --frames 300" \
         "wall ffmpeg -v error -f lavfi -i gradients=s=3840x2160:r=60:d=1:n=6:type=radial:speed=0.02,format=rgba,gblur=sigma=316.8:steps=3 -f null -"
    ours=$(ratio 300 "$A"); theirs=$(ratio 60 "$B")
    echo "row 2  4K engine: $ours fps vs ffmpeg $theirs fps -> $(ratio "$ours" "$theirs")x (target >= 50 fps and >= 10x)"
    ;;
3)
    pair "wall $BIN bench --frames 600 --blur 0.5" "wall $BIN bench --frames 600 --blur 0.9"
    echo "row 3  1080p, blur exponent 0.5: $A s, 0.9: $B s for 600 frames -> $(ratio "$A" "$B")x (target within 1.2x)"
    ;;
4)
    pair "wall $BIN bench --frames 600 --blobs 48" "wall $BIN bench --frames 600 --blobs 6"
    echo "row 4  1080p, 48 blobs: $A s, 6 blobs: $B s for 600 frames -> $(ratio "$A" "$B")x (target <= 1.5x)"
    ;;
5)
    # The same frames, as raw yuv420p, and ffmpeg's own command line from --verbose; both at
    # full size, as the row has always measured (.mp4 encodes smaller by default).
    $BIN render --size 1920x1080 --duration 10 --pixel-format yuv420p -o - > "$WORK/frames.yuv"
    command=$($BIN render --size 1920x1080 --encode-size full --duration 10 --verbose -o "$WORK/probe.mp4" 2>&1 >/dev/null | sed -n 's/^fluidgradient: ffmpeg command: //p')
    alone=$(echo "$command" | sed "s#-i pipe:0#-i $WORK/frames.yuv#; s#[^ ]*\.mp4\$#$WORK/alone.mp4#")
    pair "wall $BIN render --size 1920x1080 --encode-size full --duration 10 -o $WORK/piped.mp4" "wall $alone"
    echo "row 5  1080p60 10 s to mp4: render piped $A s, ffmpeg alone from a raw file $B s -> $(ratio "$A" "$B")x (target <= 1.15x)"
    rm -f "$WORK/frames.yuv"
    ;;
6)
    $BIN render --size 1920x1080 --frames 120 --pixel-format rgb24 -o - > "$WORK/frames.rgb"
    mkdir -p "$WORK/ours" "$WORK/theirs"
    pair "wall $BIN render --size 1920x1080 --frames 120 -o $WORK/ours/%05d.png" \
         "wall ffmpeg -v error -y -f rawvideo -pix_fmt rgb24 -s 1920x1080 -r 60 -i $WORK/frames.rgb -f image2 $WORK/theirs/%05d.png"
    ours=$(du -sb "$WORK/ours" | cut -f1); theirs=$(du -sb "$WORK/theirs" | cut -f1)
    echo "row 6  1080p PNG sequence, 120 frames: render $A s, ffmpeg -f image2 from raw $B s -> throughput $(ratio "$B" "$A")x (target >= 1.0x); size $(ratio "$ours" 1048576) MiB vs $(ratio "$theirs" 1048576) MiB -> $(ratio "$ours" "$theirs")x (target <= 1.1x)"
    rm -rf "$WORK/frames.rgb" "$WORK/ours" "$WORK/theirs"
    ;;
7)
    peak() { $BIN render --size 3840x2160 --encode-size full --duration "$1" --stats -o "$WORK/m.mp4" 2>&1 | sed -n 's/.*peak memory of this process \([0-9.]*\) MiB/\1/p'; }
    short=$(peak 1); long=$(peak 4)
    frame=$(awk 'BEGIN { printf "%.1f", 3840 * 2160 * 1.5 / 1048576 }')
    rgb=$(awk 'BEGIN { printf "%.1f", 3840 * 2160 * 3 / 1048576 }')
    echo "row 7  4K to mp4, peak memory of fluidgradient: $short MiB for 1 s, $long MiB for 4 s (limit 3 x $frame MiB yuv420p frame + 64 = $(awk -v f="$frame" 'BEGIN { print 3 * f + 64 }') MiB; with an RGB frame $(awk -v f="$rgb" 'BEGIN { print 3 * f + 64 }') MiB)"
    ;;
8)
    # Issue 2's still: the whole command, process start and PNG encoding included.
    times=""
    for ((i = 0; i < RUNS; i++)); do times+=" $(wall $BIN render -o "$WORK/still.png")"; done
    echo "still  1920x1080 PNG, the whole render command: median $(echo "$times" | median) s (target < 1 s)"
    ;;
esac
done
