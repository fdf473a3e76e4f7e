#!/usr/bin/env python3
"""The engine's gradient interpolation against Chromium's CSS gradients (issue 37, target 1).

For each of 4 spaces (srgb, linear, oklab, oklch) and 20 stop sets drawn by the
project's SplitMix64 (seeded), the engine renders a background-only frame with
`"interpolation": SPACE`, dither off, and headless Chromium renders
`linear-gradient(to right in SPACE', ...)` of the same stops (SPACE' is CSS's name,
`srgb-linear` for linear) at device pixel ratio 1 with an sRGB colour profile. Both
are composited over black and compared in 8-bit levels.

Pixels are classed, so that each difference has its stated cause:

- hue arc: oklch segments whose stops' hues are within ARC degrees of opposite
  (180 +- ARC), where the shorter arc is a coin toss for any rounding, or a stop so
  near grey (chroma < GREY) that its hue is noise and CSS calls it powerless;
- gamut: where the interpolated colour lies outside sRGB by more than CSS Color 4's
  just-noticeable difference, so the engine maps it (OKLCH chroma reduction) while
  Chromium clips it (BENCHMARKS.md says by how much);
- the rest, which the tolerance is stated for.

    Scripts/css-gradients.py [BINARY] [SETS] [SEED] [--json] [--control]

With --control the engine interpolates every set in sRGB while Chromium uses each
space: the linear, oklab and oklch sets must then fail the tolerance.

Needs chromium, numpy and Pillow (run with .build-colour/venv/bin/python or the
browser tests' venv). Prints one line per space and the worst sets; exits 1 when a
set's "rest" exceeds TOLERANCE levels (default 2).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from colourmath import SplitMix64, delta_eok, interpolate, okl_from_srgb  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = ARGS[0] if ARGS else ".build/release/fluidgradient"
SETS = int(ARGS[1]) if len(ARGS) > 1 else 20
SEED = int(ARGS[2]) if len(ARGS) > 2 else 37
TOLERANCE = float(os.environ.get("TOLERANCE", "2"))
CONTROL = "--control" in sys.argv
ARC, GREY = float(os.environ.get("ARC", "2")), float(os.environ.get("GREY", "0.02"))
SPACES = [("srgb", "srgb"), ("linear", "srgb-linear"), ("oklab", "oklab"), ("oklch", "oklch")]
W, H = 600, 4


def stop_sets(seed, count):
    """Each set: 2 to 5 stops of random colours; every third set has random alphas, every
    fourth set random locations (sorted), the others even spacing."""
    rng = SplitMix64(seed)
    sets = []
    for index in range(count):
        n = 2 + int(rng.unit() * 4)
        stops = []
        for _ in range(n):
            rgb = [int(rng.unit() * 256) for _ in range(3)]
            alpha = int(rng.unit() * 256) if index % 3 == 2 else 255
            stops.append({"rgba": rgb + [alpha]})
        if index % 4 == 3:
            locations = sorted(round(rng.unit(), 3) for _ in range(n))
        else:
            locations = [round(k / (n - 1), 4) for k in range(n)]
        for stop, location in zip(stops, locations):
            stop["location"] = location
        sets.append(stops)
    return sets


def hexcolour(rgba):
    return "#" + "".join(f"{v:02X}" for v in rgba)


def engine_strip(stops, space, work, name):
    preset = {
        "name": name, "colors": ["#000"], "size": f"{W}x{H}", "speed": 0,
        "blobs": [{"color": "#000", "center": [0.5, 0.5], "radius": [0, 0]}],
        "background": {"type": "linear", "angle": 0, "interpolation": space,
                       "stops": [{"location": s["location"], "color": hexcolour(s["rgba"])} for s in stops]},
    }
    path = os.path.join(work, name + ".json")
    with open(path, "w") as file:
        json.dump(preset, file)
    out = os.path.join(work, name + ".png")
    subprocess.run([BIN, "render", "--preset", path, "--dither", "off", "--quiet", "-o", out], check=True)
    image = np.asarray(Image.open(out).convert("RGBA"), dtype=np.float64)
    return image[..., :3] * image[..., 3:4] / 255  # over black


def chromium_strips(all_stops, work):
    rows = []
    for stops, css in all_stops:
        parts = ", ".join(f"{hexcolour(s['rgba'])} {s['location'] * 100:.4f}%" for s in stops)
        rows.append(f'<div style="width:{W}px;height:{H}px;background:linear-gradient(to right in {css}, {parts})"></div>')
    page = os.path.join(work, "page.html")
    with open(page, "w") as file:
        file.write('<!doctype html><html><body style="margin:0;background:#000">' + "".join(rows) + "</body></html>")
    shot = os.path.join(work, "page.png")
    height = H * len(rows)
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--force-color-profile=srgb",
                    "--force-device-scale-factor=1", "--hide-scrollbars", f"--window-size={W},{height}",
                    f"--screenshot={shot}", "file://" + page], check=True, capture_output=True, timeout=120)
    image = np.asarray(Image.open(shot).convert("RGB"), dtype=np.float64)
    assert image.shape[:2] == (height, W), f"screenshot {image.shape} is not {W}x{height}"
    return [image[k * H:(k + 1) * H] for k in range(len(rows))]


def classes(stops, space):
    """Per column: 0 the rest, 1 hue arc, 2 gamut; and per column the clipped colour over
    black (8-bit levels) that CSS's interpolation gives, where a browser that clips shows it."""
    t = (np.arange(W) + 0.5) / W
    labels = np.zeros(W, dtype=int)
    clips = np.full((W, 3), np.nan)
    colours = [np.array(s["rgba"][:3]) / 255 for s in stops]
    alphas = [s["rgba"][3] / 255 for s in stops]
    locations = [s["location"] for s in stops]
    for x in range(W):
        if t[x] <= locations[0] or t[x] >= locations[-1]:
            continue
        k = max(i for i in range(len(stops) - 1) if locations[i] <= t[x])
        if locations[k + 1] <= locations[k]:
            continue
        if space == "oklch":
            (_, ca, ha), (_, cb, hb) = okl_from_srgb(colours[k]), okl_from_srgb(colours[k + 1])
            difference = abs((hb - ha) % 360)
            if min(ca, cb) < GREY or abs(difference - 180) < ARC:
                labels[x] = 1
                continue
        u = (t[x] - locations[k]) / (locations[k + 1] - locations[k])
        rgb, alpha = interpolate(colours[k], alphas[k], colours[k + 1], alphas[k + 1], u, space)
        clipped = np.clip(rgb, 0, 1)
        # Within CSS's just-noticeable difference its gamut mapping is the clip itself.
        if np.any(np.abs(rgb - clipped) > 1e-9) and delta_eok(rgb, clipped) >= 0.02:
            labels[x] = 2
            clips[x] = clipped * alpha * 255
    return labels, clips


def main():
    sets = stop_sets(SEED, SETS)
    with tempfile.TemporaryDirectory() as work:
        jobs = [(stops, space, css) for space, css in SPACES for stops in sets]
        browser = chromium_strips([(stops, css) for stops, _, css in jobs], work)
        report, failed = [], 0
        for index, ((stops, space, _), theirs) in enumerate(zip(jobs, browser)):
            # The control: the engine mixes every set in sRGB, which the other spaces must fail.
            ours = engine_strip(stops, "srgb" if CONTROL else space, work, f"s{index}")
            difference = np.abs(ours - theirs).max(axis=(0, 2))  # per column, largest channel
            labels, clips = classes(stops, space)
            entry = {"space": space, "set": index % SETS, "stops": [hexcolour(s["rgba"]) + f" {s['location']}"
                                                                     for s in stops]}
            for label, name in [(0, "rest"), (1, "hue arc"), (2, "gamut")]:
                part = difference[labels == label]
                entry[name] = {"columns": int(part.size), "largest": float(part.max()) if part.size else 0.0,
                               "mean": float(part.mean()) if part.size else 0.0}
            entry["all"] = {"largest": float(difference.max()), "mean": float(difference.mean())}
            # Where the engine maps and Chromium clips: Chromium against the clipped colour.
            gamut = labels == 2
            entry["gamut"]["browser against clip"] = float(
                np.abs(theirs[:, gamut] - clips[gamut][None]).max()) if gamut.any() else 0.0
            failed += entry["rest"]["largest"] > TOLERANCE
            report.append(entry)
    if "--json" in sys.argv:
        print(json.dumps(report, indent=1))
    for space, _ in SPACES:
        rows = [r for r in report if r["space"] == space]
        rest = max(r["rest"]["largest"] for r in rows)
        mean = sum(r["rest"]["mean"] * r["rest"]["columns"] for r in rows) / max(1, sum(r["rest"]["columns"] for r in rows))
        arcs = [r["hue arc"] for r in rows if r["hue arc"]["columns"]]
        gamut = [r["gamut"] for r in rows if r["gamut"]["columns"]]
        print(f"{space:7s} {len(rows)} sets: rest largest {rest:.2f} levels, mean {mean:.3f}; "
              f"hue-arc columns {sum(a['columns'] for a in arcs)}"
              + (f" (largest {max(a['largest'] for a in arcs):.1f} levels)" if arcs else "")
              + f"; gamut columns {sum(g['columns'] for g in gamut)}"
              + (f" (largest {max(g['largest'] for g in gamut):.1f} levels; Chromium within "
                 f"{max(g['browser against clip'] for g in gamut):.1f} of the clipped colour)" if gamut else ""))
    worst = sorted(report, key=lambda r: -r["rest"]["largest"])[:5]
    for r in worst:
        print(f"  worst: {r['space']} set {r['set']}: rest {r['rest']['largest']:.2f} levels  {', '.join(r['stops'])}")
    print(f"{len(report) - failed} of {len(report)} sets within {TOLERANCE} levels away from the classed columns")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
