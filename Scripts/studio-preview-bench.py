#!/usr/bin/env python3
"""Measures the studio's live preview in headless Chromium (issue 26, target 4; issue 38, targets 4 and 5).

    Scripts/studio-preview-bench.py [--studio BIN] [--seconds N] [--edits N] [--job FORMAT] [--gallery] [--json]
                                    [--studio-options '--job-niceness 0']

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
  them while the preview plays;
- with --job FORMAT (such as bundle), the same edits while the service renders a job of the
  default preset in that format: one job is kept running (a new one starts when the last ends)
  from before the first edit to after the last (at the service's job niceness, 19 unless
  --studio-options gives another: `--job-niceness 0` runs the job at the preview's priority);
- with --gallery, how long the gallery takes to show every built-in preset's thumbnail, from
  opening its tab to the last image decoded: first on a cold service, then with the service's
  frame cache warm and the browser's cache off (a new visitor), then with both warm.

Not a unit test: timings depend on the machine. BENCHMARKS.md records the numbers.
"""

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

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


class JobLoad:
    """Keeps one render job of the default preset in `format` running on the service until `stop()`."""

    def __init__(self, url, format):
        self.url, self.format, self.jobs = url, format, 0
        self.done = threading.Event()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        self.started.wait(30)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response) if response.status != 204 else None

    def run(self):
        while not self.done.is_set():
            job = self.call("POST", "/v1/jobs", {"preset": "default", "format": self.format})
            self.jobs += 1
            self.started.set()
            while not self.done.is_set():
                state = self.call("GET", f"/v1/jobs/{job['id']}")["state"]
                if state in ("done", "failed", "cancelled"):
                    break
                time.sleep(0.2)
            try:
                self.call("DELETE", f"/v1/jobs/{job['id']}")
            except OSError:
                pass

    def stop(self):
        self.done.set()
        self.thread.join(60)


def gallery(driver, url):
    """Seconds to show every thumbnail: cold, service warm with the browser's cache off, both warm."""
    times = []
    for cache_off in (False, True, False):
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": cache_off})
        driver.get("about:blank")
        driver.get(url + "/")
        wait_for(driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0 && !studio.busy", timeout=60)
        driver.execute_script("studio.pause(); studio.showTab('gallery')")
        wait_for(driver, "studio.gallery.stats.thumbnailsDone !== null", timeout=60)
        times.append(driver.execute_script(
            "return studio.gallery.stats.thumbnailsDone - studio.gallery.stats.thumbnailsStarted") / 1000)
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--studio", default=os.environ.get(
        "FLUIDGRADIENT_STUDIO_BIN", os.path.join(ROOT, "Studio/.build/release/fluidgradient-studio")))
    parser.add_argument("--page-directory", help="serve the page from this folder (the service's development option)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--job", help="keep a render job in this format (such as bundle) running during the edits")
    parser.add_argument("--gallery", action="store_true", help="also time the gallery's thumbnails")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--studio-options", default="", help="more options for the service, as one shell string")
    options = parser.parse_args()
    # Every press must change the preset: blob size max (0.6, step 0.01) stays above its min
    # (0.15) for 44 presses, and opacity min (0.5) below its max (1) for 49.
    if not 1 <= options.edits <= 88:
        parser.error("--edits must be 1 to 88")

    work = tempfile.mkdtemp(prefix="fluidgradient-bench-")
    arguments = ["--page-directory", options.page_directory] if options.page_directory else []
    arguments += shlex.split(options.studio_options)
    server = StudioServer(options.studio, work, arguments)
    driver = chromium()
    try:
        driver.get(server.url + "/")
        wait_for(driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0 && !studio.busy", timeout=60)
        size = driver.execute_script("const c = document.getElementById('preview'); return [c.width, c.height]")
        fps, plain = play(driver, options.seconds)
        load = JobLoad(server.url, options.job) if options.job else None
        try:
            latencies = edit(driver, options.edits, random.Random(26))
        finally:
            if load:
                load.stop()
        thumbnails = gallery(driver, server.url) if options.gallery else None
    finally:
        driver.quit()
        server.close()
    result = {"previewSize": f"{size[0]}x{size[1]}", "seconds": options.seconds, "fpsMedianInterval": round(fps, 1),
              "fpsFramesOverTime": round(plain, 1), "edits": len(latencies),
              "editToPixelsMs": {"p50": round(percentile(latencies, 0.5), 1),
                                 "p95": round(percentile(latencies, 0.95), 1), "max": round(max(latencies), 1)},
              "job": options.job, "jobs": load.jobs if load else 0,
              "galleryS": [round(t, 3) for t in thumbnails] if thumbnails else None}
    if options.json:
        print(json.dumps(result))
        return
    print(f"preview {result['previewSize']}: {fps:.1f} fps (median frame interval), "
          f"{plain:.1f} fps (frames over {options.seconds:g} s)")
    during = f" while {load.jobs} {options.job} job(s) ran" if load else ""
    print(f"edit to pixels over {len(latencies)} edits{during}: p50 {result['editToPixelsMs']['p50']} ms, "
          f"p95 {result['editToPixelsMs']['p95']} ms, max {result['editToPixelsMs']['max']} ms")
    if thumbnails:
        print("gallery, all thumbnails: {:.3f} s cold, {:.3f} s service warm and browser cache off, "
              "{:.3f} s both warm".format(*thumbnails))


if __name__ == "__main__":
    main()
