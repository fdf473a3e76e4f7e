#!/usr/bin/env python3
"""The engine's colour conversions and gamut mapping against an independent
implementation (issue 37, target 2), and its ICC profile against littleCMS.

10,000 colours, drawn by the project's SplitMix64 (seeded), are written in every CSS
Color 4 form the engine reads: rgb() with numbers or percentages, hsl(), oklab(),
oklch() (chroma up to 0.5, far past any display), and color(srgb | srgb-linear |
display-p3) with channels from -0.25 to 1.25. The engine reads them
(`fluidgradient colors --json`) and gives each in sRGB and in Display P3 as 16-bit
samples, gamut mapped where outside. Here colour-science does the same from the
numbers alone: its matrices derived from the spaces' primaries and D65
(normalised_primary_matrix), its OKLab and its sRGB transfer function, with CSS
Color 4's gamut mapping written again on top of them (binary search on OKLCH chroma,
deltaEOK, JND 0.02). Both are rounded to 16 bits and compared.

The ICC profile the engine writes into Display P3 files is then read by littleCMS
(Pillow's ImageCms), which converts Display P3 colours inside sRGB to sRGB; its
8-bit results are compared with colour-science's.

    Scripts/colour-check.py [BINARY] [COUNT] [SEED]

colour-science's OKLab uses Ottosson's 2020 matrices; CSS Color 4 (and so DESIGN
section 13 and the engine) recomputed them in 2023 from the same definition at double
precision, for a D65 white that round-trips exactly. They differ by about 1e-4, which
moves a few colours that sit on a gamut-mapping decision (the JND test, the search's
last step) by more than a level. By default colour-science is given CSS Color 4's
published matrices (its code and its other conversions stay its own); OKLAB=ottosson
keeps its own, and the script prints both counts so the difference stays visible.

Needs colour-science, numpy and Pillow (a venv under .build-colour). Exits 1 when a
colour differs by more than TOLERANCE 8-bit levels (default 0.5) after 16-bit rounding.
"""
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import colour  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from colourmath import SplitMix64  # noqa: E402  (the seeded draws only)

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/fluidgradient"
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 37
TOLERANCE = float(os.environ.get("TOLERANCE", "0.5"))

# CSS Color 4's OKLab matrices (its sample code, "OKLab_to_XYZ" and "XYZ_to_OKLab").
CSS_OKLAB = {
    "MATRIX_1_XYZ_TO_LMS": [[0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
                            [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
                            [0.0481771893596242, 0.2642395317527308, 0.6335478284694309]],
    "MATRIX_2_LMS_TO_LAB": [[0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
                            [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
                            [0.0259040424655478, 0.7827717124575296, -0.8086757549230774]],
}
OTTOSSON = {name: getattr(colour.models.oklab, name).copy() for name in CSS_OKLAB}


def use_oklab(matrices):
    """Sets colour-science's OKLab matrices (and their inverses) to `matrices`."""
    module = colour.models.oklab
    module.MATRIX_1_XYZ_TO_LMS = np.array(matrices["MATRIX_1_XYZ_TO_LMS"])
    module.MATRIX_2_LMS_TO_LAB = np.array(matrices["MATRIX_2_LMS_TO_LAB"])
    module.MATRIX_1_LMS_TO_XYZ = np.linalg.inv(module.MATRIX_1_XYZ_TO_LMS)
    module.MATRIX_2_LAB_TO_LMS = np.linalg.inv(module.MATRIX_2_LMS_TO_LAB)


D65 = np.array([0.3127, 0.3290])
SRGB_TO_XYZ = colour.normalised_primary_matrix(colour.RGB_COLOURSPACES["sRGB"].primaries, D65)
P3_TO_XYZ = colour.normalised_primary_matrix(colour.RGB_COLOURSPACES["Display P3"].primaries, D65)
XYZ_TO_SRGB, XYZ_TO_P3 = np.linalg.inv(SRGB_TO_XYZ), np.linalg.inv(P3_TO_XYZ)


def decode(v):
    """The sRGB transfer function inverted (colour-science's eotf), odd for extended values."""
    v = np.asarray(v, dtype=float)
    return np.sign(v) * colour.models.eotf_sRGB(np.abs(v))


def encode(v):
    v = np.asarray(v, dtype=float)
    return np.sign(v) * colour.models.eotf_inverse_sRGB(np.abs(v))


def xyz_from_oklch(lightness, chroma, hue):
    h = math.radians(hue)
    return colour.Oklab_to_XYZ(np.array([lightness, chroma * math.cos(h), chroma * math.sin(h)]))


def draw(rng):
    """One colour in a random form: its CSS text and its XYZ (D65), alpha."""
    u = rng.unit
    form = int(u() * 7)
    alpha = 1.0 if u() < 0.7 else round(u(), 3)
    tail = "" if alpha == 1 else f" / {alpha}"
    if form == 0:
        rgb = [int(u() * 256) for _ in range(3)]
        return f"rgb({rgb[0]} {rgb[1]} {rgb[2]}{tail})", SRGB_TO_XYZ @ decode(np.array(rgb) / 255), alpha
    if form == 1:
        rgb = [round(u() * 100, 2) for _ in range(3)]
        return f"rgb({rgb[0]}% {rgb[1]}% {rgb[2]}%{tail})", SRGB_TO_XYZ @ decode(np.array(rgb) / 100), alpha
    if form == 2:
        h, s, l = round(u() * 360, 2), round(u() * 100, 2), round(u() * 100, 2)
        rgb = colour.HSL_to_RGB(np.array([h / 360, s / 100, l / 100]))
        return f"hsl({h} {s}% {l}%{tail})", SRGB_TO_XYZ @ decode(rgb), alpha
    if form == 3:
        lab = [round(u(), 5), round(u() * 0.8 - 0.4, 5), round(u() * 0.8 - 0.4, 5)]
        return f"oklab({lab[0]} {lab[1]} {lab[2]}{tail})", colour.Oklab_to_XYZ(np.array(lab)), alpha
    if form == 4:
        lch = [round(u(), 5), round(u() * 0.5, 5), round(u() * 360, 3)]
        return f"oklch({lch[0]} {lch[1]} {lch[2]}{tail})", xyz_from_oklch(*lch), alpha
    space = ["srgb", "srgb-linear", "display-p3"][form - 5 if form < 7 else 0]
    if u() < 0.33:
        space = "display-p3"
    values = [round(u() * 1.5 - 0.25, 5) for _ in range(3)]
    text = f"color({space} {values[0]} {values[1]} {values[2]}{tail})"
    linear = np.array(values) if space == "srgb-linear" else decode(values)
    return text, (P3_TO_XYZ if space == "display-p3" else SRGB_TO_XYZ) @ linear, alpha


def oklab(xyz):
    return colour.XYZ_to_Oklab(xyz)


def gamut_map(xyz, to_xyz, from_xyz):
    """CSS Color 4's gamut mapping into the RGB space of the matrices; encoded channels."""
    def clip(rgb_linear):
        return np.clip(rgb_linear, 0, 1)

    def in_gamut(rgb_linear):
        return np.all(rgb_linear >= -1e-9) and np.all(rgb_linear <= 1 + 1e-9)

    origin = from_xyz @ xyz
    lab = oklab(xyz)
    if lab[0] >= 1:
        return np.ones(3)
    if lab[0] <= 0:
        return np.zeros(3)
    if in_gamut(origin):
        return encode(clip(origin))
    lightness, chroma = lab[0], math.hypot(lab[1], lab[2])
    hue = math.degrees(math.atan2(lab[2], lab[1]))

    def at(c):
        return from_xyz @ xyz_from_oklch(lightness, c, hue)

    def delta(c, clipped_linear):
        return float(np.linalg.norm(oklab(to_xyz @ clipped_linear) - oklab(xyz_from_oklch(lightness, c, hue))))

    clipped = clip(at(chroma))
    if delta(chroma, clipped) < 0.02:
        return encode(clipped)
    low, high, low_in = 0.0, chroma, True
    while high - low > 0.0001:
        c = (low + high) / 2
        if low_in and in_gamut(at(c)):
            low = c
            continue
        clipped = clip(at(c))
        e = delta(c, clipped)
        if e < 0.02:
            if 0.02 - e < 0.0001:
                return encode(clipped)
            low_in, low = False, c
        else:
            high = c
    return encode(clipped)


def engine(texts):
    with tempfile.TemporaryFile("w+") as stdin:
        stdin.write("\n".join(texts) + "\n")
        stdin.seek(0)
        out = subprocess.run([BIN, "colors", "--json"], stdin=stdin, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def profile_check():
    """littleCMS with the engine's profile against colour-science, in 8-bit levels."""
    from PIL import Image, ImageCms
    with tempfile.TemporaryDirectory() as work:
        png = os.path.join(work, "p3.png")
        subprocess.run([BIN, "render", "--colors", "#808080", "--size", "8x8", "--color-space", "display-p3",
                        "--quiet", "-o", png], check=True)
        icc = Image.open(png).info["icc_profile"]
    ours = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    transform = ImageCms.buildTransform(ours, ImageCms.createProfile("sRGB"), "RGB", "RGB", renderingIntent=1)
    rng = SplitMix64(SEED + 1)
    pixels, expected = [], []
    while len(pixels) < 4096:
        p3 = np.array([int(rng.unit() * 256) for _ in range(3)])
        srgb = encode(XYZ_TO_SRGB @ P3_TO_XYZ @ decode(p3 / 255))
        if np.all(srgb >= 0) and np.all(srgb <= 1):
            pixels.append(p3)
            expected.append(srgb * 255)
    image = Image.fromarray(np.array(pixels, dtype=np.uint8).reshape(64, 64, 3))
    result = np.asarray(ImageCms.applyTransform(image, transform), dtype=float).reshape(-1, 3)
    error = np.abs(result - np.array(expected))
    return float(error.max()), float(error.mean()), len(icc)


def compare(results, texts):
    """Draws the colours again (with the current OKLab matrices) and compares; returns the
    worst differences per space, the largest in 16-bit units, the counts outside, the failures."""
    rng = SplitMix64(SEED)
    drawn = [draw(rng) for _ in range(COUNT)]
    assert [text for text, _, _ in drawn] == texts
    worst = {"srgb": (0.0, ""), "displayP3": (0.0, "")}
    units = {"srgb": 0, "displayP3": 0}
    outside = {"srgb": 0, "displayP3": 0}
    failed = 0
    for (text, xyz, alpha), result in zip(drawn, results):
        assert abs(result["alpha"] - alpha) < 1e-12, (text, result)
        for key, to_xyz, from_xyz in [("srgb", SRGB_TO_XYZ, XYZ_TO_SRGB), ("displayP3", P3_TO_XYZ, XYZ_TO_P3)]:
            theirs = np.round(gamut_map(xyz, to_xyz, from_xyz) * 65535)
            ours = np.array(result[key]["samples"], dtype=float)
            difference = float(np.abs(theirs - ours).max())
            units[key] = max(units[key], int(difference))
            outside[key] += not result[key]["inside"]
            levels = difference / 257
            if levels > worst[key][0]:
                worst[key] = (levels, text)
            failed += levels > TOLERANCE
    return worst, units, outside, failed


def main():
    rng = SplitMix64(SEED)
    texts = [draw(rng)[0] for _ in range(COUNT)]
    results = engine(texts)
    runs = [("ottosson", OTTOSSON), ("css", CSS_OKLAB)]
    if os.environ.get("OKLAB") == "ottosson":
        runs.reverse()
    for name, matrices in runs:
        use_oklab(matrices)
        worst, units, outside, failed = compare(results, texts)
        print(f"{COUNT} colours (seed {SEED}), colour-science with {name} OKLab matrices: outside sRGB "
              f"{outside['srgb']}, outside Display P3 {outside['displayP3']}; "
              f"{COUNT * 2 - failed} of {COUNT * 2} within {TOLERANCE} levels")
        for key, label in [("srgb", "sRGB"), ("displayP3", "Display P3")]:
            print(f"  {label:10s} largest difference {worst[key][0]:.4f} levels ({units[key]} 16-bit units) "
                  f"at {worst[key][1]}")
    largest, mean, size = profile_check()
    print(f"ICC profile ({size} bytes) in littleCMS, 4096 Display P3 colours inside sRGB: largest {largest:.2f} "
          f"levels, mean {mean:.3f} (8-bit)")
    print(f"{COUNT * 2 - failed} of {COUNT * 2} conversions within {TOLERANCE} levels after 16-bit rounding "
          f"({runs[-1][0]} OKLab matrices)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
