#!/usr/bin/env python3
"""Which colour encoding each engine shows right: issue 33's measurement of range, matrix
and transfer tag, engine by engine.

A 640x360 test image (soft blends of brand colours over flat patches of pure blue, green,
yellow, violet, red, grey, near-black and near-white) is encoded by ffmpeg in each codec
(AV1, VP9, H.264, HEVC) and each encoding: limited or full range, the BT.709 or BT.601
(`smpte170m`) matrix, transfer 1 (BT.709) or 13 (sRGB), always BT.709 primaries. Each
engine shows each clip paused at its natural size; the capture is compared with the source
image (what the viewer should see), and with the two models of BrowserTests/conversion.py
applied to ffmpeg's decode of the clip (the standard's conversion, honouring the range
flag, and libyuv's limited-range one, which is also what ignoring a full-range flag
gives). Prints a Markdown table: PSNR and the mean error per channel against the source
and against each model: the model an engine matches is its conversion.

    .build-browser/venv/bin/python Scripts/encoding-choice.py [--engines chromium,firefox,webkit] [--work DIR]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "BrowserTests"))

import conversion  # noqa: E402
import engines  # noqa: E402
from harness import BundleServer  # noqa: E402

WIDTH, HEIGHT = 640, 360
ENCODINGS = [("bt709", "tv", "bt709"), ("smpte170m", "tv", "bt709"), ("smpte170m", "tv", "iec61966-2-1"),
             ("bt709", "pc", "bt709")]
CODECS = {
    "av1.mp4": ["-c:v", "libsvtav1", "-crf", "30", "-pix_fmt", "yuv420p10le"],
    "vp9.webm": ["-c:v", "libvpx-vp9", "-crf", "20", "-b:v", "0", "-pix_fmt", "yuv420p10le"],
    "h264.mp4": ["-c:v", "libx264", "-crf", "16", "-pix_fmt", "yuv420p"],
    "hevc.mp4": ["-c:v", "libx265", "-crf", "18", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                 "-pix_fmt", "yuv420p10le"],
}


def source_image(path):
    x = np.linspace(0, 1, WIDTH)[None, :]
    y = np.linspace(0, 1, HEIGHT)[:, None]
    image = np.zeros((HEIGHT, WIDTH, 3))
    colours = np.array([[0x6D, 0x28, 0xD9], [0x14, 0xB8, 0xA6], [0xF0, 0xAB, 0xFC], [0x1D, 0x4E, 0xD8],
                        [0xFF, 0x30, 0x60]]) / 255
    for index, colour in enumerate(colours):
        centre = ((index + 0.5) / len(colours), 0.3 + 0.4 * (index % 2))
        weight = np.exp(-(((x - centre[0]) * 3) ** 2 + ((y - centre[1]) * 3) ** 2))
        image = image * (1 - weight[..., None]) + colour * weight[..., None]
    patches = [[0, 0, 255], [0, 255, 0], [255, 255, 0], [0x6D, 0x28, 0xD9], [255, 0, 0], [128, 128, 128],
               [20, 20, 40], [240, 240, 250]]
    for index, patch in enumerate(patches):
        image[HEIGHT - 60:, index * 80:(index + 1) * 80] = np.array(patch) / 255
    Image.fromarray((image * 255 + 0.5).astype(np.uint8)).save(path)


def encode(work):
    clips = []
    for matrix, range_, transfer in ENCODINGS:
        zimg = ("709" if matrix == "bt709" else "170m", "limited" if range_ == "tv" else "full")
        for suffix, codec in CODECS.items():
            name = f"{matrix}-{range_}-{transfer}.{suffix}"
            bits = "yuv420p" if "yuv420p" in codec and "yuv420p10le" not in codec else "yuv420p10le"
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", os.path.join(work, "source.png"),
                            "-t", "1", "-r", "30", "-vf", f"zscale=matrix={zimg[0]}:range={zimg[1]}:dither=none,"
                            f"format={bits}", *codec, "-color_primaries", "bt709", "-color_trc", transfer,
                            "-colorspace", matrix, "-color_range", range_, os.path.join(work, name)],
                           check=True, capture_output=True)
            clips.append(name)
    return clips


PLACE = """
    document.body.style.margin = '0'; document.body.style.background = '#000'; document.body.innerHTML = '';
    const video = document.createElement('video'); video.muted = true; video.preload = 'auto';
    video.src = arguments[0];
    video.style.cssText = 'position:fixed;left:0;top:0;width:640px;height:360px';
    document.body.append(video);
    return await new Promise(done => {
      video.onloadeddata = () => { video.currentTime = 0.5; video.onseeked = () =>
        requestAnimationFrame(() => requestAnimationFrame(() => done('ready'))); };
      video.onerror = () => done('error ' + (video.error && video.error.code));
      setTimeout(() => done('timeout'), 15000);
    });"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engines", default="chromium,chromium-gpu,firefox,firefox-window,webkit")
    parser.add_argument("--work", default=None)
    options = parser.parse_args()
    work = options.work or tempfile.mkdtemp(prefix="fluidgradient-encodings-")
    os.makedirs(work, exist_ok=True)
    source_image(os.path.join(work, "source.png"))
    with open(os.path.join(work, "blank.html"), "w") as handle:
        handle.write("<!doctype html><title>blank</title>")
    clips = encode(work)
    source = np.asarray(Image.open(os.path.join(work, "source.png")).convert("RGB"), dtype=np.float64)
    server = BundleServer(work)
    print("| engine | clip (matrix-range-transfer.codec) | vs source: dB; mean R/G/B | vs exact model | "
          "vs libyuv model |")
    print("| --- | --- | --- | --- | --- |")
    for name in options.engines.split(","):
        engine = engines.ENGINES[name]()
        try:
            engine.open(server.url + "/blank.html")
            for clip in clips:
                state = engine.run(PLACE, clip)
                if state != "ready":
                    print(f"| {name} | {clip} | {state} | | |")
                    continue
                time.sleep(0.3)
                shot = engine.screenshot()[:HEIGHT, :WIDTH]
                planes = conversion.decode(os.path.join(work, clip), frames=16)
                cells = []
                for reference in (source, conversion.exact(planes, 15), conversion.libyuv(planes, 15)):
                    difference = shot - reference
                    psnr = 10 * np.log10(1 / max(np.mean((difference / 255) ** 2), 1e-10))
                    means = difference.reshape(-1, 3).mean(axis=0)
                    cells.append(f"{psnr:.1f} dB; {means[0]:+.2f}/{means[1]:+.2f}/{means[2]:+.2f}")
                print(f"| {name} | {clip} | " + " | ".join(cells) + " |", flush=True)
        finally:
            engine.quit()
    server.close()


if __name__ == "__main__":
    main()
