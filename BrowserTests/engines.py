"""The three browser engines that run here, each behind one small interface.

- `Chromium(gpu=False)`: Debian's chromium through chromium-driver (selenium), headless,
  software compositing; `gpu=True` composites on SwiftShader's GL.
- `Firefox(window=False)`: Debian's firefox-esr through its built-in WebDriver BiDi
  (`--remote-debugging-port`, a WebSocket, no geckodriver); headless, captured by BiDi's
  screenshot; `window=True` runs it under Xvfb in kiosk mode and captures its window
  from the X server (what the compositor put on screen).
- `WebKit()`: Debian's webkit2gtk-driver (WebKitWebDriver) driving MiniBrowser under Xvfb.

Each has `open(url)`, `run(script, *arguments)` (the script's `return` value; a Promise is
awaited), `screenshot()` (the viewport as RGB floats in 8-bit levels) and `quit()`. The
viewport is `VIEWPORT` CSS pixels at device scale 1.
"""

import base64
import glob
import io
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time

import numpy as np
from PIL import Image

VIEWPORT = (1280, 720)


def _image(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64)


def _free_display():
    """A display number with no X server on it."""
    for number in range(90, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            return number
    raise RuntimeError("no free X display number")


class Xvfb:
    """An X server in memory, `VIEWPORT` in size and 24-bit, until `close()`."""

    def __init__(self, size=VIEWPORT):
        self.number = _free_display()
        self.display = f":{self.number}"
        self.size = size
        self.process = subprocess.Popen(
            ["Xvfb", self.display, "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not os.path.exists(f"/tmp/.X11-unix/X{self.number}"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("Xvfb did not start")
            time.sleep(0.05)

    def grab(self):
        """The whole screen as RGB floats, through ffmpeg's x11grab."""
        raw = subprocess.run(
            ["ffmpeg", "-v", "error", "-f", "x11grab", "-video_size", f"{self.size[0]}x{self.size[1]}", "-i",
             self.display, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
            check=True, capture_output=True).stdout
        return np.frombuffer(raw, dtype=np.uint8).reshape(self.size[1], self.size[0], 3).astype(np.float64)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Chromium:
    """Debian's Chromium, headless, through chromium-driver."""

    def __init__(self, gpu=False):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.name = "chromium-gpu" if gpu else "chromium"
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     "--autoplay-policy=no-user-gesture-required", "--force-color-profile=srgb",
                     f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"]
        if gpu:
            arguments += ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                          "--enable-gpu-compositing", "--enable-gpu-rasterization"]
        else:
            arguments += ["--disable-gpu"]
        for argument in arguments:
            options.add_argument(argument)
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})

    def reduced_motion(self, on):
        features = [{"name": "prefers-reduced-motion", "value": "reduce" if on else "no-preference"}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})

    def open(self, url):
        self.driver.get(url)

    def run(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def screenshot(self):
        return _image(self.driver.get_screenshot_as_png())

    def quit(self):
        self.driver.quit()


class _BiDi:
    """A WebDriver BiDi session over one WebSocket: commands by id, events skipped."""

    def __init__(self, url):
        import websocket
        deadline = time.monotonic() + 30
        while True:
            try:
                self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.ids = itertools.count(1)

    def send(self, method, **params):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") != number:
                continue
            if message.get("type") == "error" or "error" in message:
                raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def close(self):
        self.socket.close()


# Firefox's preferences for a test profile: media plays without a gesture, nothing phones home.
_FIREFOX_PREFS = {
    "media.autoplay.default": 0, "media.autoplay.blocking_policy": 0, "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore", "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False, "app.update.disabledForTesting": True,
    "browser.tabs.warnOnClose": False, "layout.css.devPixelsPerPx": "1.0", "remote.active-protocols": 1,
    "ui.prefersReducedMotion": 0, "browser.aboutwelcome.enabled": False, "sidebar.revamp": False,
    "browser.toolbars.bookmarks.visibility": "never", "full-screen-api.warning.timeout": 0,
}


def _free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Firefox:
    """Debian's firefox-esr through WebDriver BiDi; headless, or its window under Xvfb."""

    def __init__(self, window=False):
        self.name = "firefox-window" if window else "firefox"
        self.profile = tempfile.mkdtemp(prefix="fluidgradient-firefox-")
        self.xvfb = Xvfb() if window else None
        self._write_prefs()
        port = _free_port()
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        arguments = [binary, "--no-remote", "--profile", self.profile, f"--remote-debugging-port={port}"]
        environment = dict(os.environ, MOZ_CRASHREPORTER_DISABLE="1")
        if window:
            arguments += ["--kiosk"]
            environment["DISPLAY"] = self.xvfb.display
            environment.pop("WAYLAND_DISPLAY", None)
        else:
            arguments += ["--headless", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"]
        self.log = open(os.path.join(self.profile, "firefox.log"), "w")
        self.process = subprocess.Popen(arguments + ["about:blank"], stdout=self.log, stderr=subprocess.STDOUT,
                                        env=environment)
        self.bidi = _BiDi(f"ws://127.0.0.1:{port}/session")
        self.bidi.send("session.new", capabilities={})
        self.context = self.bidi.send("browsingContext.getTree")["contexts"][0]["context"]
        if not window:
            self.bidi.send("browsingContext.setViewport", context=self.context,
                           viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]}, devicePixelRatio=1)

    def _write_prefs(self):
        prefs = dict(_FIREFOX_PREFS)
        with open(os.path.join(self.profile, "user.js"), "w") as handle:
            for key, value in prefs.items():
                handle.write(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n")

    def open(self, url):
        self.bidi.send("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def run(self, script, *arguments):
        result = self.bidi.send(
            "script.callFunction", functionDeclaration=f"async function() {{ {script} }}",
            arguments=[_bidi_value(argument) for argument in arguments], target={"context": self.context},
            awaitPromise=True, resultOwnership="none")
        if result.get("type") == "exception":
            raise RuntimeError(f"script failed: {result['exceptionDetails'].get('text')}")
        return _python_value(result["result"])

    def screenshot(self):
        if self.xvfb:
            return self.xvfb.grab()
        data = self.bidi.send("browsingContext.captureScreenshot", context=self.context, origin="viewport")["data"]
        return _image(base64.b64decode(data))

    def quit(self):
        try:
            self.bidi.send("browser.close")
        except Exception:
            pass
        self.bidi.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        if self.xvfb:
            self.xvfb.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def _bidi_value(value):
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, (int, float)):
        return {"type": "number", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, (list, tuple)):
        return {"type": "array", "value": [_bidi_value(item) for item in value]}
    raise TypeError(f"cannot pass {type(value)} to a script")


def _python_value(remote):
    kind = remote.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind in ("string", "boolean"):
        return remote["value"]
    if kind == "number":
        value = remote["value"]
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0": 0.0}.get(
            value, value) if isinstance(value, str) else value
    if kind == "array":
        return [_python_value(item) for item in remote.get("value", [])]
    if kind == "object":
        return {key if isinstance(key, str) else _python_value(key): _python_value(item)
                for key, item in remote.get("value", [])}
    return None


class WebKit:
    """Debian's WebKitGTK: MiniBrowser under Xvfb, driven by WebKitWebDriver."""

    MINIBROWSER = (glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser") or ["MiniBrowser"])[0]

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service
        self.name = "webkit"
        self.xvfb = Xvfb((VIEWPORT[0] + 200, VIEWPORT[1] + 200))
        self.display = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = self.xvfb.display
        options = webdriver.WebKitGTKOptions()
        options.binary_location = self.MINIBROWSER
        options.add_argument("--automation")
        options.add_argument("--enable-media=true")
        options.add_argument("--enable-mediasource=true")
        self.driver = webdriver.WebKitGTK(service=Service(shutil.which("WebKitWebDriver")), options=options)
        self.driver.set_window_rect(0, 0, VIEWPORT[0], VIEWPORT[1])
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        # The window's chrome takes some of the window: grow it until the viewport is right.
        self.driver.set_window_rect(0, 0, 2 * VIEWPORT[0] - inner[0], 2 * VIEWPORT[1] - inner[1])

    def open(self, url):
        self.driver.get(url)

    def run(self, script, *arguments):
        # WebKitWebDriver runs a script as a plain function: one that awaits is wrapped.
        if "await " in script:
            return self.driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                f"(async function() {{ {script} }}).apply(null, Array.from(arguments).slice(0, -1))"
                ".then(done, e => done({__error: String(e)}));", *arguments)
        return self.driver.execute_script(script, *arguments)

    def screenshot(self):
        shot = _image(self.driver.get_screenshot_as_png())
        return shot[:VIEWPORT[1], :VIEWPORT[0]]

    def quit(self):
        self.driver.quit()
        self.xvfb.close()
        if self.display is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = self.display


ENGINES = {"chromium": Chromium, "chromium-gpu": lambda: Chromium(gpu=True), "firefox": Firefox,
           "firefox-window": lambda: Firefox(window=True), "webkit": WebKit}
