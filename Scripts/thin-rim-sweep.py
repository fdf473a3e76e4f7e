#!/usr/bin/env python3
"""Random thin bars, short ellipses and diagonal dot chains against the oracle.

Each case is a one-frame preset rendered by `fluidgradient bench --check-accuracy`
(the production path against the full-resolution, direct-convolution reference,
8-bit, dither off). Prints how many cases break DESIGN's tolerance (largest error
2 levels, mean 0.5) and the worst twelve.

    Scripts/thin-rim-sweep.py [BINARY] [CASES] [SEED]
    TMAX=40 Scripts/thin-rim-sweep.py     # bars up to 40 px thick

Defaults: .build/release/fluidgradient, 200 cases, seed 1, thickness 0.5 to 8 px
(TMAX), sigma log-uniform in 8 to 60 px (below 8 the path is the definition).
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/fluidgradient"
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 200
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
THICKEST = float(os.environ.get("TMAX", "8"))
W, H = 320, 180


def blobs(kind, thick, color):
    """The shape's blobs in unit space; `thick` is the full thickness in pixels."""
    if kind in ("h", "hshort"):
        length = 3.0 if kind == "h" else rng.uniform(10, 80) / W
        return [{"color": color, "center": [rng.uniform(0.2, 0.8), rng.uniform(0.05, 0.95)],
                 "radius": [length, thick / 2 / H], "opacity": 1.0}]
    if kind in ("v", "vshort"):
        length = 3.0 if kind == "v" else rng.uniform(10, 80) / H
        return [{"color": color, "center": [rng.uniform(0.05, 0.95), rng.uniform(0.2, 0.8)],
                 "radius": [thick / 2 / W, length], "opacity": 1.0}]
    x0, y0 = rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3)
    return [{"color": color, "center": [x0 + 0.6 * k / 39, y0 + 0.6 * k / 39],
             "radius": [thick / 2 / W, thick / 2 / H], "opacity": 1.0} for k in range(40)]


def run_case():
    thick = rng.uniform(0.5, THICKEST)
    sigma = math.exp(rng.uniform(math.log(8), math.log(60)))
    edges = rng.choice(["bleed", "transparent", "clamp"])
    kind = rng.choice(["h", "v", "hshort", "vshort", "diag"])
    color = rng.choice(["#FFFFFF", "#FF8800", "#33CCFF"])
    preset = {"name": "sweep", "colors": ["#3366FF"], "background": "#000000",
              "blur": math.log(sigma) / math.log(min(W, H)), "edges": edges, "speed": 0,
              "size": f"{W}x{H}", "blobs": blobs(kind, thick, color)}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(preset, file)
    try:
        out = subprocess.run([BIN, "bench", "--preset", file.name, "--size", f"{W}x{H}", "--frames", "1",
                              "--check-accuracy", "--json", "--threads", "1"],
                             capture_output=True, text=True, check=True)
    finally:
        os.unlink(file.name)
    result = json.loads(out.stdout)
    return (result["maxErrorLevels"], result["meanErrorLevels"], kind, round(thick, 2), round(sigma, 1), edges)


results = sorted((run_case() for _ in range(CASES)), reverse=True)
over = [r for r in results if r[0] > 2 or r[1] > 0.5]
print(f"{len(results)} cases, {len(over)} over tolerance; worst largest error {results[0][0]:.2f} levels")
for r in results[:12]:
    print("  largest %.2f mean %.3f %s, %s px thick, sigma %s px, %s" % r)
