#!/usr/bin/env python3
"""How far a smaller encode, scaled up bilinearly as a player does, is from the full-size frame.

Each case is a random preset (seeded): 2 to 6 colours, 0 to 2 highlights, a solid,
linear or radial background, a blur exponent in 0.3...0.95, any of the three edge
modes, a random speed and seed. At several instants, the script renders the frame at
the output size (16-bit, dither off, raw) and at smaller sizes W/k x H/k with the point
scale divided by k, as `--encode-size` does (the same sigma); it scales each small frame up with the
bilinear filter players and ffmpeg's `scale=flags=bilinear` use (pixel centres aligned,
edges clamped) and takes the largest difference of the premultiplied values, in 8-bit
levels. It asks the binary which size `--encode-size auto` picks, and reports the worst
case at that size and at the next smaller candidate (how much room the rule leaves).

    Scripts/encode-size-sweep.py [BINARY] [CASES] [SEED]
    SIZE=640x360 INSTANTS=5 Scripts/encode-size-sweep.py
    BLUR=0.75 Scripts/encode-size-sweep.py          # one blur exponent only
    BLUR=0.62-0.95 EDGES=bleed,transparent Scripts/encode-size-sweep.py   # where sizes shrink

Defaults: .build/release/fluidgradient, 60 cases, seed 1, 1920x1080, 4 instants a
case spread over the 10 s loop. Needs numpy.
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

import numpy as np

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/fluidgradient"
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 60
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
W, H = (int(side) for side in os.environ.get("SIZE", "1920x1080").split("x"))
INSTANTS = int(os.environ.get("INSTANTS", "4"))
BLUR = [float(b) for b in os.environ.get("BLUR", "0.3-0.95").split("-")]
EDGES = os.environ.get("EDGES", "bleed,transparent,clamp").split(",")


def colour():
    return "#%02X%02X%02X" % tuple(rng.randrange(256) for _ in range(3))


def background():
    kind = rng.random()
    if kind < 0.6:
        return colour()
    stops = sorted(rng.random() for _ in range(rng.randrange(2, 4)))
    stops[0], stops[-1] = 0.0, 1.0
    return {"type": "linear" if kind < 0.85 else "radial", "angle": rng.uniform(0, 360),
            "stops": [{"location": round(s, 3), "color": colour()} for s in stops]}


def random_preset():
    return {"name": "sweep", "colors": [colour() for _ in range(rng.randrange(2, 7))],
            "highlights": [colour() for _ in range(rng.randrange(0, 3))], "background": background(),
            "blur": round(rng.uniform(BLUR[0], BLUR[-1]), 3),
            "edges": rng.choice(EDGES), "seed": rng.randrange(1 << 31),
            "speed": round(rng.uniform(0.3, 1.2), 2), "loop": True, "duration": 10}


def render(preset_path, width, height, time, blur):
    """One frame, premultiplied RGBA in 0...1 as float64, height x width x 4."""
    out = subprocess.run([BIN, "render", "--preset", preset_path, "--size", f"{width}x{height}",
                          "--blur", repr(blur), "--time", repr(time), "--depth", "16",
                          "--dither", "off", "--pixel-format", "rgba64le", "-o", "-"],
                         capture_output=True, check=True).stdout
    rgba = np.frombuffer(out, dtype="<u2").reshape(height, width, 4).astype(np.float64) / 65535
    rgba[..., :3] *= rgba[..., 3:]
    return rgba


def upscale(image, width, height):
    """Bilinear, pixel-centre aligned, edge samples clamped."""
    def taps(source, target):
        position = ((2 * np.arange(target) + 1) * source - target) / (2 * target)
        below = np.floor(position)
        first = below.astype(int)
        return np.clip(first, 0, source - 1), np.clip(first + 1, 0, source - 1), position - below
    x0, x1, fx = taps(image.shape[1], width)
    y0, y1, fy = taps(image.shape[0], height)
    rows = image[:, x0] + (image[:, x1] - image[:, x0]) * fx[None, :, None]
    return rows[y0] + (rows[y1] - rows[y0]) * fy[:, None, None]


def auto_factor(preset_path):
    """The k of the size `--encode-size auto` picks (1 for full size), from its --stats line."""
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run([BIN, "render", "--preset", preset_path, "--size", f"{W}x{H}", "--frames", "1",
                                 "--encode-size", "auto", "--stats", "-o", directory + "/probe.gif"],
                                capture_output=True, text=True, check=True)
    width = int(re.search(r"frames? of (\d+)x(\d+)", result.stderr).group(1))
    return W // width


def candidates():
    """Integer factors k > 1 that give even sides, as the rule uses."""
    return [k for k in range(2, min(W, H) // 2 + 1)
            if W % k == 0 and H % k == 0 and (W // k) % 2 == 0 and (H // k) % 2 == 0]


def small_blur(blur, k):
    """The exponent that gives sigma/k at W/k x H/k with point scale 1.

    --encode-size divides the point scale by k instead, which gives the same sigma (the
    frame depends on sigma alone), but the command line keeps --point-scale at 0.25 or
    more, and raw output, which this reads, takes no --encode-size.
    """
    side = min(W, H)
    return math.log(side ** blur / k) / math.log(side / k)


def largest_error(preset_path, blur, k, times, full_frames):
    worst = 0.0
    for time, full in zip(times, full_frames):
        small = render(preset_path, W // k, H // k, time, small_blur(blur, k))
        worst = max(worst, float(np.abs(upscale(small, W, H) - full).max()) * 255)
    return worst


def run_case(index):
    preset = random_preset()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(preset, file)
    try:
        k = auto_factor(file.name)
        times = [round((i + rng.random()) * 10 / INSTANTS, 3) for i in range(INSTANTS)]
        full = [render(file.name, W, H, t, preset["blur"]) for t in times]
        at_auto = largest_error(file.name, preset["blur"], k, times, full) if k > 1 else 0.0
        smaller = [c for c in candidates() if c > k]
        at_next = largest_error(file.name, preset["blur"], smaller[0], times, full) if smaller else None
    finally:
        os.unlink(file.name)
    background_kind = preset["background"]["type"] if isinstance(preset["background"], dict) else "solid"
    return {"case": index, "k": k, "size": f"{W // k}x{H // k}", "error": at_auto,
            "next": smaller[0] if smaller else None, "nextError": at_next, "blur": preset["blur"], "edges": preset["edges"], "background": background_kind}


results = [run_case(i) for i in range(CASES)]
reduced = [r for r in results if r["k"] > 1]
kept = [r for r in results if r["k"] == 1]
print(f"{len(results)} cases at {W}x{H}, {INSTANTS} instants each: {len(reduced)} encoded smaller, "
      f"{len(kept)} at full size")
if reduced:
    worst = max(reduced, key=lambda r: r["error"])
    print("largest error at the size auto picks: %.3f levels (case %d, %s, blur %.3f, %s edges, %s background); "
          "%d over 1 level" % (worst["error"], worst["case"], worst["size"], worst["blur"], worst["edges"],
                               worst["background"], sum(r["error"] > 1 for r in reduced)))
    nexts = [r["nextError"] for r in reduced if r["nextError"] is not None]
    if nexts:
        print("at the next smaller size: %.3f to %.3f levels, %d of %d over 1 level"
              % (min(nexts), max(nexts), sum(e > 1 for e in nexts), len(nexts)))
if kept:
    halves = [r["nextError"] for r in kept if r["nextError"] is not None]
    print("kept at full size: at half size they would be %.3f to %.3f levels off, %d of %d over 1 level"
          % (min(halves), max(halves), sum(e > 1 for e in halves), len(halves)))
for r in sorted(results, key=lambda r: -r["error"])[:12]:
    next_error = "-" if r["nextError"] is None else "%.3f" % r["nextError"]
    print("  case %3d  blur %.3f  %-11s %-6s auto %-9s %.3f levels; k=%s: %s"
          % (r["case"], r["blur"], r["edges"], r["background"], r["size"], r["error"], r["next"], next_error))
