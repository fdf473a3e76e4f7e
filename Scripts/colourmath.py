"""CSS Color 4's conversions and interpolation, written again in Python for the scripts
that hold the engine to outside references (css-gradients.py classes Chromium's pixels
with it). The matrices here are CSS's own; colour-check.py takes colour-science's
instead, as the independent implementation.
"""
import math

import numpy as np

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The project's generator (Sources/FluidGradient/Random/SplitMix64.swift), bit for bit."""

    def __init__(self, seed):
        self.state = seed & MASK64

    @staticmethod
    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        return self.mix(self.state)

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53


SRGB_TO_XYZ = np.array([[506752 / 1228815, 87881 / 245763, 12673 / 70218],
                        [87098 / 409605, 175762 / 245763, 12673 / 175545],
                        [7918 / 409605, 87881 / 737289, 1001167 / 1053270]])
XYZ_TO_LMS = np.array([[0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
                       [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
                       [0.0481771893596242, 0.2642395317527308, 0.6335478284694309]])
LMS_TO_OKLAB = np.array([[0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
                         [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
                         [0.0259040424655478, 0.7827717124575296, -0.8086757549230774]])


def linear(v):
    v = np.asarray(v, dtype=float)
    a = np.abs(v)
    return np.sign(v) * np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)


def encoded(v):
    v = np.asarray(v, dtype=float)
    a = np.abs(v)
    return np.sign(v) * np.where(a <= 0.0031308, 12.92 * a, 1.055 * a ** (1 / 2.4) - 0.055)


def oklab_from_linear(rgb):
    lms = XYZ_TO_LMS @ (SRGB_TO_XYZ @ np.asarray(rgb, dtype=float))
    return LMS_TO_OKLAB @ np.cbrt(lms)


def linear_from_oklab(lab):
    lms = np.linalg.solve(LMS_TO_OKLAB, np.asarray(lab, dtype=float)) ** 3
    return np.linalg.solve(SRGB_TO_XYZ, np.linalg.solve(XYZ_TO_LMS, lms))


def okl_from_srgb(rgb):
    """OKLCH (L, C, hue in degrees) of a gamma-encoded sRGB colour."""
    lab = oklab_from_linear(linear(rgb))
    return lab[0], math.hypot(lab[1], lab[2]), math.degrees(math.atan2(lab[2], lab[1])) % 360


def srgb_from_oklab(lab):
    return encoded(linear_from_oklab(lab))


def delta_eok(srgb_a, srgb_b):
    return float(np.linalg.norm(oklab_from_linear(linear(srgb_a)) - oklab_from_linear(linear(srgb_b))))


def interpolate(rgb_a, alpha_a, rgb_b, alpha_b, u, space):
    """CSS Color 4 premultiplied interpolation; returns (extended sRGB, alpha)."""
    def coords(rgb):
        if space == "srgb":
            return np.array(rgb, dtype=float)
        if space == "linear":
            return linear(rgb)
        lab = oklab_from_linear(linear(rgb))
        if space == "oklab":
            return lab
        chroma = math.hypot(lab[1], lab[2])
        hue = math.degrees(math.atan2(lab[2], lab[1])) % 360 if chroma > 0.000004 else float("nan")
        return np.array([lab[0], chroma, hue])

    a, b = coords(rgb_a), coords(rgb_b)
    if space == "oklch":
        if math.isnan(a[2]) and math.isnan(b[2]):
            a[2] = b[2] = 0
        elif math.isnan(a[2]):
            a[2] = b[2]
        elif math.isnan(b[2]):
            b[2] = a[2]
        if b[2] - a[2] > 180:
            a[2] += 360
        elif b[2] - a[2] < -180:
            b[2] += 360
    pa, pb = a * alpha_a, b * alpha_b
    if space == "oklch":
        pa[2], pb[2] = a[2], b[2]
    alpha = alpha_a + (alpha_b - alpha_a) * u
    mixed = pa + (pb - pa) * u
    if alpha <= 0:
        return np.zeros(3), 0.0
    straight = mixed / alpha
    if space == "oklch":
        straight[2] = mixed[2]
        h = math.radians(straight[2])
        straight = np.array([straight[0], straight[1] * math.cos(h), straight[1] * math.sin(h)])
    if space == "srgb":
        return straight, alpha
    if space == "linear":
        return encoded(straight), alpha
    return srgb_from_oklab(straight), alpha
