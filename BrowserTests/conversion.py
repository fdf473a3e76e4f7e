"""Decoded video frames, and the Y'CbCr to RGB conversions the engines apply to them.

`decode(path)` reads every frame of a video as its own stored planes (Y, Cb, Cr at 8 or
10 bits, as ffmpeg's decoder gives them, no conversion). The models then turn planes into
8-bit RGB as an engine does:

- `exact(...)`: the standard's conversion in floating point, with the chroma upsampled
  bilinearly from centred samples (the files' `chroma_sample_location`), rounded to 8 bits.
  This is what an engine that follows the standard shows.
- `libyuv(...)`: libyuv's integer conversion (row_common.cc, x86 C path), which Chromium's
  and Firefox's software video paths use: 6-bit coefficients with the blue one clamped to
  128/64 = 2.0 (BT.709's is 2.112, BT.601's 2.018), 10-bit chroma truncated to 8 bits,
  and each chroma sample repeated over its 2x2 pixels.

Matrices are named as ffprobe names them: `bt709` and `smpte170m` (BT.601).
"""

import json
import subprocess

import numpy as np

KR_KB = {"bt709": (0.2126, 0.0722), "smpte170m": (0.299, 0.114), "bt470bg": (0.299, 0.114)}
# libyuv's limited-range tables (UB, UG, VG, VR), with UB clamped to 128.
LIBYUV = {"bt709": (128, 14, 34, 115), "smpte170m": (128, 25, 52, 102), "bt470bg": (128, 25, 52, 102)}


def probe(path):
    """The first video stream's fields, ffprobe's names."""
    output = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=codec_name,codec_tag_string,width,height,pix_fmt,color_space,color_primaries,color_transfer,"
         "color_range,nb_frames,r_frame_rate:format_tags=comment", "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    parsed = json.loads(output)
    return parsed["streams"][0], parsed.get("format", {}).get("tags", {})


class Planes:
    """Decoded frames as stored: `y` (frames, H, W), `cb` and `cr` (frames, H/2, W/2), `bits`."""

    def __init__(self, y, cb, cr, bits, matrix, full_range):
        self.y, self.cb, self.cr, self.bits = y, cb, cr, bits
        self.matrix, self.full_range = matrix, full_range

    def __len__(self):
        return len(self.y)


def decode(path, frames=None):
    """Every frame of `path` (or the first `frames`) as its stored 4:2:0 planes."""
    stream, _ = probe(path)
    width, height = int(stream["width"]), int(stream["height"])
    bits = 10 if "10" in stream["pix_fmt"] else 8
    pix_fmt = "yuv420p10le" if bits == 10 else "yuv420p"
    command = ["ffmpeg", "-v", "error", "-i", path]
    if frames:
        command += ["-frames:v", str(frames)]
    raw = subprocess.run(command + ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-"], check=True,
                         capture_output=True).stdout
    dtype = "<u2" if bits == 10 else np.uint8
    samples = np.frombuffer(raw, dtype=dtype)
    cw, ch = (width + 1) // 2, (height + 1) // 2
    per_frame = width * height + 2 * cw * ch
    samples = samples.reshape(-1, per_frame)
    y = samples[:, :width * height].reshape(-1, height, width)
    cb = samples[:, width * height:width * height + cw * ch].reshape(-1, ch, cw)
    cr = samples[:, width * height + cw * ch:].reshape(-1, ch, cw)
    matrix = stream.get("color_space", "unknown")
    return Planes(y, cb, cr, bits, matrix, stream.get("color_range") == "pc")


def _upsample_centred(plane, height, width):
    """4:2:0 chroma with centred samples, bilinear to full size (edges repeated)."""
    ch, cw = plane.shape
    def axis(n, m):
        position = (np.arange(n) + 0.5) / 2 - 0.5
        low = np.clip(np.floor(position).astype(int), 0, m - 1)
        high = np.clip(low + 1, 0, m - 1)
        weight = np.clip(position - np.floor(position), 0, 1)
        weight = np.where(np.floor(position) < 0, 0.0, weight)
        return low, high, weight
    rl, rh, rw = axis(height, ch)
    cl, chh, cwt = axis(width, cw)
    rows = plane[rl] * (1 - rw)[:, None] + plane[rh] * rw[:, None]
    return rows[:, cl] * (1 - cwt)[None, :] + rows[:, chh] * cwt[None, :]


def _nearest(plane, height, width):
    return np.repeat(np.repeat(plane, 2, axis=0), 2, axis=1)[:height, :width]


def exact(planes, index, matrix=None, full_range=None, rounded=True):
    """Frame `index` converted by the standard (floating point), as RGB levels."""
    matrix = matrix or planes.matrix
    full_range = planes.full_range if full_range is None else full_range
    kr, kb = KR_KB.get(matrix, KR_KB["bt709"])
    scale = 4.0 if planes.bits == 10 else 1.0
    y = planes.y[index].astype(np.float64) / scale
    height, width = y.shape
    cb = _upsample_centred(planes.cb[index].astype(np.float64) / scale, height, width)
    cr = _upsample_centred(planes.cr[index].astype(np.float64) / scale, height, width)
    if full_range:
        luma, u, v = y / 255, (cb - 128) / 255, (cr - 128) / 255
    else:
        luma, u, v = (y - 16) / 219, (cb - 128) / 224, (cr - 128) / 224
    kg = 1 - kr - kb
    r = luma + 2 * (1 - kr) * v
    b = luma + 2 * (1 - kb) * u
    g = (luma - kr * r - kb * b) / kg
    rgb = np.clip(np.stack([r, g, b], axis=-1) * 255, 0, 255)
    return np.floor(rgb + 0.5) if rounded else rgb


def libyuv(planes, index, matrix=None):
    """Frame `index` as libyuv's limited-range integer conversion gives it, RGB levels."""
    ub, ug, vg, vr = LIBYUV.get(matrix or planes.matrix, LIBYUV["bt709"])
    yg, yb = 18997, -1160
    height, width = planes.y[index].shape
    y = planes.y[index].astype(np.int64)
    cb = _nearest(planes.cb[index].astype(np.int64), height, width)
    cr = _nearest(planes.cr[index].astype(np.int64), height, width)
    if planes.bits == 10:
        y32 = (y << 6) | (y >> 4)
        cb, cr = np.minimum(cb >> 2, 255), np.minimum(cr >> 2, 255)
    else:
        y32 = y * 0x0101
    y1 = ((y32 * yg) >> 16) + yb
    u, v = cb - 128, cr - 128
    b = (y1 + u * ub) >> 6
    g = (y1 - (u * ug + v * vg)) >> 6
    r = (y1 + v * vr) >> 6
    return np.clip(np.stack([r, g, b], axis=-1), 0, 255).astype(np.float64)


# WebKitGTK's 8-bit path (H.264 through GStreamer here) converts with the standard's
# coefficients (a least-squares fit of its output gives BT.601's within 0.01) but sits a
# constant 2 to 3 levels low per channel; measured on neon's frame 20 at 640x360.
GSTREAMER_8BIT_OFFSET = np.array([-2.22, -3.05, -2.09])


def gstreamer(planes, index, matrix=None):
    """Frame `index` as WebKitGTK shows it: the exact conversion, less the constant offset
    of its 8-bit path."""
    rgb = exact(planes, index, matrix=matrix, rounded=False)
    if planes.bits == 8:
        rgb = rgb + GSTREAMER_8BIT_OFFSET
    return np.clip(np.floor(rgb + 0.5), 0, 255)


MODELS = {"exact": exact, "libyuv": libyuv, "gstreamer": gstreamer}
