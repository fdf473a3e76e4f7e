"""What the studio's browser tests share: the service and a Chromium at a window size, and the
ways a person drives the page (typing, keys, clicks), waited on as the page reports them.

The preview is checked exactly: the canvas's pixels against the PNG the API serves for the
same design, size and instant, decoded by Pillow (the frames are opaque 8-bit sRGB, drawn 1:1).
"""

import base64
import io
import json
import os
import tempfile
import time
import unittest

import numpy as np
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import StudioServer, chromium, wait_for

BINARY = os.environ.get("FLUIDGRADIENT_BIN", ".build/release/fluidgradient")
STUDIO = os.environ.get("FLUIDGRADIENT_STUDIO_BIN", "Studio/.build/release/fluidgradient-studio")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The frame the pixel checks pause on: 0.5 s, on the preview's 1/30 s grid.
CHECK_FRAME = 15
DESKTOP = (1440, 900)
PHONE = (390, 844)


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def decode(png):
    """A PNG's pixels as an RGBA uint8 array."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def png_bytes(array):
    """An RGB(A) uint8 array as PNG bytes."""
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def axe_script():
    """axe-core's script, as a PyPI package ships it (axe-playwright-python bundles axe-core 4;
    installed without its Playwright dependency, only for this file)."""
    import axe_playwright_python
    with open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8") as f:
        return f.read()


class StudioPage(unittest.TestCase):
    """A test case with the service, a Chromium of `WINDOW` CSS pixels, and the page's helpers."""

    WINDOW = (1920, 1080)
    MOBILE = False

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="fluidgradient-studio-")
        cls.downloads = os.path.join(cls.work, "downloads")
        os.makedirs(cls.downloads)
        # FLUIDGRADIENT_STUDIO_PAGE serves the page from its source folder (for work on the page).
        page = os.environ.get("FLUIDGRADIENT_STUDIO_PAGE")
        cls.server = StudioServer(STUDIO, cls.work, ["--page-directory", page] if page else [])
        cls.driver = chromium()
        cls.size(*cls.WINDOW, mobile=cls.MOBILE)
        cls.driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                   {"behavior": "allow", "downloadPath": cls.downloads})

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.close()

    @classmethod
    def size(cls, width, height, mobile=False):
        """Makes the window `width` x `height` CSS pixels at device scale 1."""
        cls.driver.set_window_size(width, height)
        cls.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def setUp(self):
        self.open(self.server.url + "/")

    # ---- helpers -------------------------------------------------------------------------

    def js(self, script, *arguments):
        return self.driver.execute_script("return " + script, *arguments)

    def open(self, url):
        """Loads the studio afresh (from about:blank, so a fragment-only change reloads too)."""
        self.driver.get("about:blank")
        self.driver.get(url)
        wait_for(self.driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0", timeout=60)
        self.settle()

    def settle(self):
        """Waits until every edit is sent and the preview shows a frame of the resulting design."""
        wait_for(self.driver, "!studio.busy && studio.lastFrameURL && studio.lastFrameURL.includes(studio.viewId || studio.designId)",
                 timeout=30)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def tab(self, name):
        """Shows a side panel (design, gallery, export, match, saved) by clicking its tab."""
        self.find(f'[role="tab"][data-tab="{name}"]').click()
        wait_for(self.driver, f"studio.tab === {json.dumps(name)}")

    def type_into(self, selector, text):
        """Replaces a field's text by typing, as a person does, and leaves the field."""
        field = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'}), true", field)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text, Keys.TAB)

    def click(self, selector):
        element = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'}), true", element)
        element.click()
        return element

    def edited(self, before):
        """Waits for a design other than `before` and its first frame."""
        wait_for(self.driver, f"studio.designId && studio.designId !== {json.dumps(before)}", timeout=30)
        self.settle()

    def design(self):
        return self.js("studio.designId")

    def pause_at(self, k):
        """Pauses the preview on frame k of the current design and waits until it is drawn."""
        self.js("studio.pause(), studio.seek(arguments[0]), true", k)
        suffix = f"/{k / 30!r}.png" if k % 30 else f"/{k // 30}.png"
        wait_for(self.driver, f"studio.preview.drawn === {k} && studio.lastFrameURL.includes(studio.viewId || studio.designId)"
                              f" && studio.lastFrameURL.endsWith({json.dumps(suffix)})", timeout=30)

    def canvas(self):
        """The preview canvas's pixels as an RGBA uint8 array."""
        width, height, data = self.js("""(() => {
            const c = document.getElementById('preview');
            const bytes = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let binary = '';
            for (let i = 0; i < bytes.length; i += 0x8000) {
                binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            }
            return [c.width, c.height, btoa(binary)];
        })()""")
        return np.frombuffer(base64.b64decode(data), dtype=np.uint8).reshape(height, width, 4)

    def assert_preview_is_engine_frame(self, k=CHECK_FRAME):
        """The canvas holds, exactly, the API's PNG of the frame it claims to show."""
        self.pause_at(k)
        shown = self.canvas()
        url = self.js("studio.lastFrameURL")
        expected = decode(self.server.get(url))
        self.assertEqual(shown.shape, expected.shape, url)
        differing = int(np.count_nonzero(np.any(shown != expected, axis=2)))
        self.assertEqual(differing, 0, f"{differing} pixels of the canvas differ from {url}")
        return url

    def preset(self):
        return self.js("studio.preset()")

    def error_at(self, key):
        """The text of the problem shown in `key`'s slot, once there is one."""
        return wait_for(self.driver, f"document.querySelector('[data-error-for=\"{key}\"].shown')?.textContent")

    def downloaded(self, name, timeout=30):
        path = os.path.join(self.downloads, name)
        deadline = time.monotonic() + timeout
        while not os.path.exists(path):
            self.assertLess(time.monotonic(), deadline, f"no {name} in {os.listdir(self.downloads)}")
            time.sleep(0.1)
        time.sleep(0.2)
        return path

    def upload(self, selector, array, name):
        """Chooses `array` (an image) in the file input `selector`, as a person does in the file chooser."""
        path = os.path.join(self.work, name)
        with open(path, "wb") as handle:
            handle.write(png_bytes(array))
        self.find(selector).send_keys(path)
        return path
