"""What the browser tests stand on: a local HTTP server, headless Chromium, and images.

- `BundleServer` serves a directory on 127.0.0.1 with byte ranges, as a web server
  or CDN does: Chromium seeks in a video by asking for ranges.
- `StudioServer` runs the render service (fluidgradient-studio) on a free port.
- `chromium()` starts Debian's chromium headless through chromium-driver, with a
  1920x1080 viewport at device scale 1, so one CSS pixel is one screenshot pixel.
- The image helpers hold frames as float arrays in 8-bit levels.
"""

import http.server
import io
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import numpy as np
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

VIEWPORT = (1920, 1080)


class _RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Python's file handler plus `Range: bytes=A-B`, without which media is not seekable."""

    def log_message(self, *args):
        pass

    def send_head(self):
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        path = self.translate_path(self.path)
        if not match or not os.path.isfile(path):
            return super().send_head()
        size = os.path.getsize(path)
        first, last = match.groups()
        start = int(first) if first else max(0, size - int(last))
        end = min(size - 1, int(last)) if first and last else size - 1
        if start > end:
            self.send_error(416)
            return None
        handle = open(path, "rb")
        handle.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        return _Window(handle, end - start + 1)


class _Window:
    """A file read up to `length` bytes, for `copyfile`."""

    def __init__(self, handle, length):
        self.handle, self.left = handle, length

    def read(self, size=-1):
        size = self.left if size < 0 else min(size, self.left)
        data = self.handle.read(size)
        self.left -= len(data)
        return data

    def close(self):
        self.handle.close()


class BundleServer:
    """Serves `root` on 127.0.0.1 at a free port until `close()`."""

    def __init__(self, root):
        handler = lambda *args, **kwargs: _RangeHandler(*args, directory=root, **kwargs)
        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StudioServer:
    """The render service `binary` (fluidgradient-studio) with `arguments` on a free loopback
    port, until `close()`; its output goes to studio.log in `work`."""

    def __init__(self, binary, work, arguments=()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(work, "studio.log"), "w+")
        self.process = subprocess.Popen([binary, "--port", str(self.port), *arguments],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/v1/presets", timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answers (401 when started with a token)
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                output = self.log.read()[-2000:]
                self.close()
                raise RuntimeError(f"{binary} did not start:\n{output}")
            time.sleep(0.2)

    def get(self, path, attempts=5):
        """The body of GET `path`; a 503 (the service's documented answer when busy) is asked
        again after its Retry-After, up to `attempts` times."""
        for attempt in range(attempts):
            try:
                with urllib.request.urlopen(self.url + path, timeout=30) as response:
                    return response.read()
            except urllib.error.HTTPError as error:
                if error.code != 503 or attempt == attempts - 1:
                    raise
                time.sleep(min(5.0, float(error.headers.get("Retry-After") or 1)))

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def chromium():
    """Headless Chromium with autoplay allowed, as a muted background video is."""
    binary = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     "--autoplay-policy=no-user-gesture-required", "--force-color-profile=srgb",
                     f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
    return driver


def reduced_motion(driver, on):
    """Emulates `prefers-reduced-motion: reduce` for the pages loaded after it."""
    features = [{"name": "prefers-reduced-motion", "value": "reduce" if on else "no-preference"}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def screenshot(driver):
    """The viewport as an RGB float array in 8-bit levels."""
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return np.asarray(image, dtype=np.float64)


def read_frame(path):
    """An image ffmpeg reads (any PNG, 8 or 16-bit) as RGBA floats in 8-bit levels, alpha straight.

    Through ffmpeg because Pillow reads 16-bit RGB PNGs as 8-bit.
    """
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height", "-of", "csv=p=0", path], check=True, capture_output=True, text=True)
    width, height = map(int, probe.stdout.strip().split(","))
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba64le", "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype="<u2").reshape(height, width, 4).astype(np.float64) * (255.0 / 65535.0)


def over(frame, backdrop):
    """`frame` (RGBA, straight alpha) composited source-over onto an opaque RGB backdrop."""
    alpha = frame[..., 3:4] / 255.0
    return frame[..., :3] * alpha + backdrop * (1 - alpha)


def checkerboard(width, height, square, dark, light):
    """An RGB checkerboard in 8-bit levels, dark at the top-left."""
    rows = (np.arange(height) // square)[:, None]
    columns = (np.arange(width) // square)[None, :]
    board = np.where(((rows + columns) % 2 == 0)[..., None], float(dark), float(light))
    return np.broadcast_to(board, (height, width, 3)).copy()


def errors(actual, expected):
    """(largest, mean, PSNR in dB) of two arrays in 8-bit levels."""
    difference = np.abs(actual - expected)
    squared = np.mean((difference / 255.0) ** 2)
    psnr = float("inf") if squared == 0 else 10 * np.log10(1 / squared)
    return float(difference.max()), float(difference.mean()), float(psnr)


def wait_for(driver, script, timeout=20.0, interval=0.05):
    """Runs `script` (a JS expression) until it is truthy; returns its value or raises."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script("return " + script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for: {script}")
        time.sleep(interval)
