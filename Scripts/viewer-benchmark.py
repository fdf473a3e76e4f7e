#!/usr/bin/env python3
"""Issue 33's viewer targets 1, 1b and 2, measured in every engine that runs here.

For each preset: the 10 s 1080p60 loop's bundle; in each engine, each source it plays,
paused on frame 20 after a seek from frame 50, the shown frame identified by matching
(BrowserTests/viewing.py); the capture against (1) the engine's 16-bit, dither-off frame
of that instant at the encode size and (1b) the model of the engine's own conversion
applied to the decoded file, and ffmpeg's exact decode against the engine's frame for
reference; then (2) the page's poster against the video's first frame, and the largest
step of the page's 0.6 s cross-fade. Prints a Markdown table.

    .build-browser/venv/bin/python Scripts/viewer-benchmark.py [--engines chromium,firefox,webkit]
        [--presets neon,default,...] [--work DIR]

FLUIDGRADIENT_BIN names the built fluidgradient (release: .build/release/fluidgradient).
Run it through the browser tests' venv (selenium, numpy, Pillow, websocket-client).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "BrowserTests"))

import conversion  # noqa: E402
import engines  # noqa: E402
import viewing  # noqa: E402
from harness import BundleServer, read_frame  # noqa: E402

BINARY = os.environ.get("FLUIDGRADIENT_BIN", ".build/release/fluidgradient")
LOOP = ["--size", "1920x1080", "--fps", "60", "--duration", "10", "--loop"]
TARGET, BEFORE = 20, 50


def render(*arguments):
    subprocess.run([BINARY, "render", "--quiet", *arguments], check=True)


def prepare(preset, work):
    """The preset's bundle and the engine's frames around the target at the encode size."""
    bundle = os.path.join(work, preset)
    if not os.path.exists(os.path.join(bundle, "manifest.json")):
        render("--preset", preset, *LOOP, "--bundle", bundle)
    with open(os.path.join(bundle, "manifest.json")) as handle:
        manifest = json.load(handle)
    size = (manifest["encodedWidth"], manifest["encodedHeight"])
    frames = os.path.join(work, preset + "-frames")
    if not os.path.exists(frames):
        os.makedirs(frames)
        scale = repr(size[0] / manifest["displayWidth"])
        render("--preset", preset, *LOOP, "--size", f"{size[0]}x{size[1]}", "--point-scale", scale, "--depth", "16",
               "--dither", "off", "--frame-range", f"{TARGET - 3}-{TARGET + 3}", "-o",
               os.path.join(frames, "%03d.png"))
    with open(os.path.join(bundle, "blank.html"), "w") as handle:
        handle.write("<!doctype html><title>blank</title>")
    return bundle, manifest, size, frames


def measure_sources(engine, name, server, bundle, manifest, size, frames):
    rows = []
    for entry in manifest["files"]:
        if entry["role"] != "loop":
            continue
        file = entry["file"]
        decoded = viewing.Decoded(os.path.join(bundle, file), name)
        if viewing.place(engine, file, entry["type"], *size) != "ready":
            rows.append((file, None))
            continue
        shot, index, stale, _ = viewing.shown_frame(engine, file, entry["type"], size, 60, TARGET, BEFORE, decoded)
        path = os.path.join(frames, f"{index:03d}.png")
        reference = read_frame(path)[..., :3] if os.path.exists(path) else None
        engine_psnr, engine_means, _ = viewing.channel_errors(shot, reference)
        _, model_means, model_mean = viewing.channel_errors(shot, decoded.rgb(index))
        exact_psnr, _, _ = viewing.channel_errors(conversion.exact(decoded.planes, index), reference)
        rows.append((file, dict(index=index, stale=stale, psnr=engine_psnr, means=engine_means,
                                model=model_mean, model_means=model_means, exact=exact_psnr)))
    return rows


def measure_poster(engine, server, fallback):
    width, height = engines.VIEWPORT
    measured = viewing.poster_switch(engine, server.url + "/index.html", width, height, fallback)
    shots = measured["shots"]
    jump = shots["video"] - shots["poster"]
    means = jump.reshape(-1, 3).mean(axis=0)
    blocks = float(np.abs(viewing.block_means(jump)).max())
    step = max(float(np.abs(means).max()), blocks) / viewing.FADE_FRAMES
    return measured["poster"], means, blocks, step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engines", default="chromium,chromium-gpu,firefox,firefox-window,webkit")
    parser.add_argument("--presets", default=None)
    parser.add_argument("--work", default=None)
    options = parser.parse_args()
    presets = options.presets.split(",") if options.presets else [
        line.split()[0] for line in subprocess.run([BINARY, "presets", "list"], capture_output=True, text=True,
                                                   check=True).stdout.splitlines() if line.strip()]
    work = options.work or tempfile.mkdtemp(prefix="fluidgradient-viewers-")
    prepared = {preset: prepare(preset, work) for preset in presets}
    print("| preset | engine | source | frame shown | (1) vs engine: dB; mean R/G/B | (1b) vs model: mean abs "
          "(R/G/B) | ffmpeg exact vs engine |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    posters = []
    for name in options.engines.split(","):
        engine = engines.ENGINES[name]()
        try:
            for preset in presets:
                bundle, manifest, size, frames = prepared[preset]
                server = BundleServer(bundle)
                engine.open(server.url + "/blank.html")
                for file, row in measure_sources(engine, name, server, bundle, manifest, size, frames):
                    if row is None:
                        print(f"| {preset} | {name} | {file} | not played | | | |")
                        continue
                    means, model_means = row["means"], row["model_means"]
                    print(f"| {preset} | {name} | {file} | {row['index']}{' stale' if row['stale'] else ''} | "
                          f"{row['psnr']:.1f}; {means[0]:+.2f}/{means[1]:+.2f}/{means[2]:+.2f} | "
                          f"{row['model']:.2f} ({model_means[0]:+.2f}/{model_means[1]:+.2f}/{model_means[2]:+.2f})"
                          f" | {row['exact']:.1f} |", flush=True)
                for fallback in (False, True):
                    posters.append((preset, name, *measure_poster(engine, server, fallback)))
                server.close()
        finally:
            engine.quit()
    print("\n| preset | engine | poster shown | video frame 0 - poster: mean R/G/B | 40x40 blocks, largest | "
          "largest fade step |")
    print("| --- | --- | --- | --- | --- | --- |")
    for preset, name, poster, means, blocks, step in posters:
        print(f"| {preset} | {name} | {poster} | {means[0]:+.2f}/{means[1]:+.2f}/{means[2]:+.2f} | {blocks:.2f} | "
              f"{step:.3f} |")


if __name__ == "__main__":
    main()
