#!/usr/bin/env python3
"""Measures the studio's live preview in headless Chromium (issue 26, target 4).

    Scripts/studio-preview-bench.py [--studio BIN] [--seconds N] [--edits N] [--json]

Starts the render service (FLUIDGRADIENT_STUDIO_BIN, or Studio/.build/release/fluidgradient-
studio), loads the studio in Debian's Chromium as the browser tests do (BrowserTests/harness.py;
run it with their venv, .build-browser/venv/bin/python), and reports:

- the preview's frame rate while it plays for N seconds: 1000 / the median interval between
  drawn frames (performance.now() at each drawImage of an engine frame, 640x360 for a 16:9
  design), and the plain count of frames over the window;
- edit to pixels over the scripted edits: from a key press's event time on a range thumb to
  the first drawn frame of the design it produced (the page's own studio.stats.editLatencies),
  p50, p95 and max. Each edit is a new preset (blob size max down, opacity min up, taking
  turns), so no frame comes from a cache; a person's pause of 50 to 250 ms (seeded) separates
  them while the preview plays.

Not a unit test: timings depend on the machine. BENCHMARKS.md records the numbers.
"""

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "BrowserTests"))

from harness import StudioServer, chromium, wait_for  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def percentile(values, fraction):
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def play(driver, seconds):
    """Frames drawn while the preview plays for `seconds`: (median-interval fps, frames / seconds)."""
    driver.execute_script("studio.play()")
    time.sleep(1)  # past the first frames' fetches
    start = driver.execute_script("return performance.now()")
    time.sleep(seconds)
    times = driver.execute_script("return studio.stats.frameTimes.filter((t) => t >= arguments[0])", start)
    gaps = [b - a for a, b in zip(times, times[1:])]
    if not gaps:
        raise SystemExit("the preview drew no frames")
    return 1000 / statistics.median(gaps), len(times) / seconds


def edit(driver, count, rng):
    """`count` key presses on range thumbs, each awaited until its design's first frame is drawn."""
    thumbs = [driver.find_element(By.CSS_SELECTOR, '[data-range="blobSize"] [data-thumb="max"]'),
              driver.find_element(By.CSS_SELECTOR, '[data-range="opacity"] [data-thumb="min"]')]
    keys = [Keys.ARROW_LEFT, Keys.ARROW_RIGHT]
    first = driver.execute_script("return studio.stats.editLatencies.length")
    for index in range(count):
        before = driver.execute_script("return studio.stats.editLatencies.length")
        thumbs[index % 2].send_keys(keys[index % 2])
        wait_for(driver, f"studio.stats.editLatencies.length > {before} && !studio.busy", timeout=30, interval=0.01)
        time.sleep(rng.uniform(0.05, 0.25))
    return driver.execute_script("return studio.stats.editLatencies.slice(arguments[0])", first)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--studio", default=os.environ.get(
        "FLUIDGRADIENT_STUDIO_BIN", os.path.join(ROOT, "Studio/.build/release/fluidgradient-studio")))
    parser.add_argument("--page-directory", help="serve the page from this folder (the service's development option)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options = parser.parse_args()
    # Every press must change the preset: blob size max (0.6, step 0.01) stays above its min
    # (0.15) for 44 presses, and opacity min (0.5) below its max (1) for 49.
    if not 1 <= options.edits <= 88:
        parser.error("--edits must be 1 to 88")

    work = tempfile.mkdtemp(prefix="fluidgradient-bench-")
    arguments = ["--page-directory", options.page_directory] if options.page_directory else []
    server = StudioServer(options.studio, work, arguments)
    driver = chromium()
    try:
        driver.get(server.url + "/")
        wait_for(driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0 && !studio.busy", timeout=60)
        size = driver.execute_script("const c = document.getElementById('preview'); return [c.width, c.height]")
        fps, plain = play(driver, options.seconds)
        latencies = edit(driver, options.edits, random.Random(26))
    finally:
        driver.quit()
        server.close()
    result = {"previewSize": f"{size[0]}x{size[1]}", "seconds": options.seconds, "fpsMedianInterval": round(fps, 1),
              "fpsFramesOverTime": round(plain, 1), "edits": len(latencies),
              "editToPixelsMs": {"p50": round(percentile(latencies, 0.5), 1),
                                 "p95": round(percentile(latencies, 0.95), 1), "max": round(max(latencies), 1)}}
    if options.json:
        print(json.dumps(result))
        return
    print(f"preview {result['previewSize']}: {fps:.1f} fps (median frame interval), "
          f"{plain:.1f} fps (frames over {options.seconds:g} s)")
    print(f"edit to pixels over {len(latencies)} edits: p50 {result['editToPixelsMs']['p50']} ms, "
          f"p95 {result['editToPixelsMs']['p95']} ms, max {result['editToPixelsMs']['max']} ms")


if __name__ == "__main__":
    main()
