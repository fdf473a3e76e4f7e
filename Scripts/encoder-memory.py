#!/usr/bin/env python3
"""The memory of the render service's job encoders, measured: what its job plan is built on.

    Scripts/encoder-memory.py [FLUIDGRADIENT] [--sizes 640x360,1280x720,1920x1080] [--seconds 2]
                              [--formats mp4,webm,mov,gif,webp,apng,avif,bundle]

Runs the release `fluidgradient render` (default .build/release/fluidgradient) for every job
format (`-o out.EXT --encode-size full`) and for a web bundle (`--bundle`) at each size, 60 fps,
and polls /proc every 20 ms for the resident memory of the command and each ffmpeg it starts
(VmRSS), keeping each process's peak and the peak of the whole tree at once. Prints a table
and, for each encoder, the least-squares line peak = base + bytes per pixel x pixels over the
sizes, which Studio/Sources/FluidGradientStudio/Jobs/JobPlan.swift uses (with a margin).
The results are in BENCHMARKS.md, "Issue 35".
"""

import argparse
import json
import os
import subprocess
import tempfile
import time

FORMATS = ["mp4", "webm", "mov", "gif", "webp", "apng", "avif"]


def rss(pid):
    """The resident memory of `pid` in bytes, or 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def children(pid):
    """The pids of `pid`'s children."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(p) for p in listing.read().split()]
    except OSError:
        return []


def label(pid):
    """What an ffmpeg child writes: the base name of its last argument."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            arguments = cmdline.read().split(b"\0")
        arguments = [a.decode() for a in arguments if a]
        return os.path.basename(arguments[-1]) if arguments else "?"
    except OSError:
        return "?"


def measure(command):
    """Runs `command`; returns (peak of the tree, peak of the command itself, {output: peak})."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    tree_peak = own_peak = 0
    encoders = {}
    names = {}
    while process.poll() is None:
        own = rss(process.pid)
        total = own
        for child in children(process.pid):
            names.setdefault(child, label(child))
            used = rss(child)
            total += used
            encoders[names[child]] = max(encoders.get(names[child], 0), used)
        tree_peak = max(tree_peak, total)
        own_peak = max(own_peak, own)
        time.sleep(0.02)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-400:]}")
    return tree_peak, own_peak, encoders


def fit(points):
    """The least-squares line through (pixels, bytes) points: (base, bytes per pixel)."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0
    return mean_y - slope * mean_x, slope


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=".build/release/fluidgradient")
    parser.add_argument("--sizes", default="640x360,1280x720,1920x1080")
    parser.add_argument("--seconds", default="2")
    parser.add_argument("--formats", default=",".join(FORMATS + ["bundle"]))
    options = parser.parse_args()
    sizes = options.sizes.split(",")
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for size in sizes:
            width, height = map(int, size.split("x"))
            base = [options.binary, "render", "--preset", "aurora", "--size", size, "--fps", "60",
                    "--duration", options.seconds, "--encode-size", "full", "--quiet"]
            for kind in options.formats.split(","):
                output = os.path.join(work, f"{size}.{kind}")
                command = base + (["--bundle", output] if kind == "bundle" else ["-o", output])
                tree, own, encoders = measure(command)
                results[f"{kind} {size}"] = {"pixels": width * height, "tree": tree, "own": own,
                                             "encoders": encoders}
                mib = lambda b: f"{b / 2**20:.0f}"
                detail = ", ".join(f"{k} {mib(v)}" for k, v in sorted(encoders.items()))
                print(f"{kind:6} {size:10} tree {mib(tree):>5} MiB  command {mib(own):>4} MiB  [{detail}]",
                      flush=True)
    lines = {}
    for key, result in results.items():
        kind = key.split()[0]
        lines.setdefault(f"{kind} (tree)", []).append((result["pixels"], result["tree"]))
        lines.setdefault(f"{kind} (command)", []).append((result["pixels"], result["own"]))
        if kind == "bundle":
            for output, peak in result["encoders"].items():
                stem = output.split(".")[0] if not output.startswith("poster") else output
                lines.setdefault(f"bundle {stem}", []).append((result["pixels"], peak))
    print("\nLeast-squares lines, peak = base + bytes per pixel x pixels:")
    for name, points in sorted(lines.items()):
        base, slope = fit(points)
        print(f"  {name:28} base {base / 2**20:7.1f} MiB, {slope:6.1f} bytes/pixel")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
