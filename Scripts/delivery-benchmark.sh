#!/usr/bin/env bash
# Measures the delivery table of BENCHMARKS.md ("For the web and apps"): a 10 s,
# 1080p60 loop of every built-in preset as a bundle, against today's full-size H.264
# of the same loop, in one run.
#
#   Scripts/delivery-benchmark.sh                 every preset, the baseline for BASELINES of them
#   PRESETS="default ocean" BASELINES=1 Scripts/delivery-benchmark.sh
#   SKIP_ANIMATED=1 BASELINES=0 Scripts/delivery-benchmark.sh   the bundles alone (issue 33's rows 3-6)
#
# Rows 1-3 read each bundle's manifest.json: bytes, and PSNR and the largest error over
# RGB after a bilinear upscale to 1080p, against the 16-bit, dither-off 1080p render at
# 5 instants of the loop. Row 4 is each bundle's wall time (all of its encodes, its
# posters and those measurements). Row 5 encodes a 4 s loop as .webp and .avif at their
# default encode size. Each loop's crf is the bundle's searched rate; row 6 is the most
# banding any file of a bundle adds (manifest.json's banding; flagged above 1).
# Needs ffmpeg and avifenc; builds the release binary first; scratch files under /tmp.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fluidgradient >/dev/null
BIN=$PWD/.build/release/fluidgradient
PRESETS=${PRESETS:-$($BIN presets list | awk '{ print $1 }')}
BASELINES=${BASELINES:-2}
WORK=$(mktemp -d /tmp/fluidgradient-delivery.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
LOOP=(--size 1920x1080 --fps 60 --duration 10 --loop --quiet)

seconds() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.1f", ns / 1e9 }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
echo "loops: 10 s at 1920x1080, 60 fps, --loop; presets: $(echo $PRESETS | wc -w)"
echo
: >"$WORK/rows.tsv"
baselines=0
for preset in $PRESETS; do
    bundle_s=$(seconds "$BIN" render --preset "$preset" "${LOOP[@]}" --bundle "$WORK/$preset")
    full_s=-
    full_bytes=-
    if [ "$baselines" -lt "$BASELINES" ]; then
        full_s=$(seconds "$BIN" render --preset "$preset" "${LOOP[@]}" --encode-size full -o "$WORK/$preset-full.mp4")
        full_bytes=$(stat -c %s "$WORK/$preset-full.mp4")
        rm -f "$WORK/$preset-full.mp4"
        baselines=$((baselines + 1))
    fi
    webp=-
    avif=-
    if [ -z "${SKIP_ANIMATED:-}" ]; then
        "$BIN" render --preset "$preset" --size 1920x1080 --fps 60 --duration 4 --loop --quiet -o "$WORK/$preset.webp"
        "$BIN" render --preset "$preset" --size 1920x1080 --fps 60 --duration 4 --loop --quiet -o "$WORK/$preset.avif"
        webp=$(stat -c %s "$WORK/$preset.webp")
        avif=$(stat -c %s "$WORK/$preset.avif")
    fi
    python3 - "$WORK/$preset/manifest.json" "$preset" "$bundle_s" "$full_s" "$full_bytes" \
        "$webp" "$avif" >>"$WORK/rows.tsv" <<'EOF'
import json, sys
manifest, preset, bundle_s, full_s, full_bytes, webp, avif = sys.argv[1:]
files = {f["file"]: f for f in json.load(open(manifest))["files"]}
encoded = json.load(open(manifest))["encodedWidth"], json.load(open(manifest))["encodedHeight"]
row = [preset, f"{encoded[0]}x{encoded[1]}", bundle_s, full_s, full_bytes, webp, avif]
for name in ("loop-av1.mp4", "loop-hevc.mp4", "loop-h264.mp4", "loop-vp9.webm"):
    f = files[name]
    row += [str(f["bytes"]), str(f["psnr"]), str(f["largestError"]), str(f.get("crf", "-"))]
banding = max((f["banding"], name) for name, f in files.items() if "banding" in f)
row += [str(banding[0]), banding[1]]
print("\t".join(row))
EOF
    rm -rf "${WORK:?}/$preset" "$WORK/$preset.webp" "$WORK/$preset.avif"
done

python3 - "$WORK/rows.tsv" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
codecs = ("AV1", "HEVC", "H.264", "VP9")
print("preset      encoded  bundle s  full H.264 s  full H.264 bytes  webp 4s  avif 4s  "
      + "  ".join(f"{c} bytes / dB / largest / crf" for c in codecs) + "  most banding (file)")
for r in rows:
    cells = [f"{r[7 + 4 * i]:>8} / {float(r[8 + 4 * i]):.2f} / {float(r[9 + 4 * i]):.2f} / {r[10 + 4 * i]:>2}"
             for i in range(4)]
    print(f"{r[0]:<11} {r[1]:<8} {r[2]:>8}  {r[3]:>12}  {r[4]:>16}  {r[5]:>7}  {r[6]:>7}  " + "  ".join(cells)
          + f"  {float(r[23]):.3f} ({r[24]})")
print()
median = lambda values: statistics.median(values)
def codec(i):
    column = [(int(r[7 + 4 * i]), float(r[8 + 4 * i]), float(r[9 + 4 * i])) for r in rows]
    return median([c[0] for c in column]), min(c[1] for c in column), max(c[2] for c in column)
av1, hevc, h264 = codec(0), codec(1), codec(2)
print(f"row 1  AV1 .mp4, 10 s: median {av1[0] / 1000:.0f} KB; worst PSNR {av1[1]:.2f} dB, worst largest error "
      f"{av1[2]:.2f} levels (target <= 120 KB at >= 50 dB and <= 8 levels)")
print(f"row 2  HEVC .mp4 (hvc1), 10 s: median {hevc[0] / 1000:.0f} KB; worst PSNR {hevc[1]:.2f} dB, worst largest "
      f"{hevc[2]:.2f} (target <= 200 KB, same bar)")
print(f"row 3  H.264 .mp4, 10 s: median {h264[0] / 1000:.0f} KB; worst PSNR {h264[1]:.2f} dB (target <= 500 KB, >= 49 dB)")
baseline = [(float(r[3]), int(r[4]), float(r[2])) for r in rows if r[3] != "-"]
bundle = median([float(r[2]) for r in rows])
line = f"row 4  whole bundle, wall: median {bundle:.1f} s, longest {max(float(r[2]) for r in rows):.1f} s (target <= 60 s)"
if baseline:
    full = median([b[0] for b in baseline])
    line += (f"; today's full-size H.264 alone: median {full:.1f} s and {median([b[1] for b in baseline]) / 1e6:.2f} MB "
             f"over {len(baseline)} presets -> bundle/baseline {median([b[2] / b[0] for b in baseline]):.2f}x")
print(line)
banding = max(rows, key=lambda r: float(r[23]))
print(f"row 6  banding: most added by any file {float(banding[23]):.3f} ({banding[0]} {banding[24]}); "
      f"{sum(float(r[23]) > 1 for r in rows)} presets with a file over 1 (target: none; the banded control, "
      "dusk's 8-bit frame without dither, adds 2.90: BandingCompareTests)")
webp = [int(r[5]) for r in rows if r[5] != "-"]
avif = [int(r[6]) for r in rows if r[6] != "-"]
if webp:
    print(f"row 5  4 s loop at 1080p display: .webp median {median(webp) / 1e6:.2f} MB, largest {max(webp) / 1e6:.2f} MB; "
          f".avif median {median(avif) / 1e6:.2f} MB, largest {max(avif) / 1e6:.2f} MB (target each <= 1 MB)")
EOF
