"""The studio page in the other two engines the delivery issue brought in: Firefox ESR
(headless, WebDriver BiDi) and WebKitGTK (MiniBrowser under Xvfb), each through engines.py's
script interface. In each: the preview draws the engine's frame exactly; an edit, undone and
redone, gives back both designs; full screen renders at the window's size; and at a phone's
width (390 CSS pixels; 447 in WebKit, the narrowest MiniBrowser's window goes) nothing reaches
past the window's edge and only the page scrolls.
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

from engines import Firefox, WebKit
from harness import StudioServer
from studio_page import STUDIO
from test_studio_layout import OVERFLOW, SCROLLERS

CANVAS = """const c = document.getElementById('preview');
    const bytes = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return [c.width, c.height, btoa(binary), studio.lastFrameURL];"""


class EngineStudio:
    """The checks, run in `ENGINE`."""

    ENGINE = None

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="fluidgradient-studio-engine-")
        page = os.environ.get("FLUIDGRADIENT_STUDIO_PAGE")
        cls.server = StudioServer(STUDIO, cls.work, ["--page-directory", page] if page else [])
        cls.engine = cls.ENGINE()

    @classmethod
    def tearDownClass(cls):
        cls.engine.quit()
        cls.server.close()

    def until(self, expression, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            value = self.engine.run(f"return {expression};")
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.engine.name}: timed out waiting for {expression}")
            time.sleep(0.1)

    def load(self):
        self.engine.open("about:blank")
        self.engine.open(self.server.url + "/")
        self.until("window.studio && studio.designId && studio.stats.framesDrawn > 0 && !studio.busy")

    def assert_engine_frame(self, k):
        self.engine.run(f"studio.pause(); studio.seek({k}); return true;")
        self.until(f"studio.preview.drawn === {k} && studio.lastFrameURL.includes(studio.viewId)")
        width, height, data, url = self.engine.run(CANVAS)
        shown = np.frombuffer(base64.b64decode(data), dtype=np.uint8).reshape(height, width, 4)
        expected = np.asarray(Image.open(io.BytesIO(self.server.get(url))).convert("RGBA"))
        self.assertEqual(shown.shape, expected.shape, url)
        differing = int(np.count_nonzero(np.any(shown != expected, axis=2)))
        self.assertEqual(differing, 0, f"{self.engine.name}: {differing} pixels differ from {url}")
        return url

    def test_preview_edit_undo_redo_and_full_screen(self):
        self.load()
        self.assert_engine_frame(15)
        first = self.engine.run("return studio.designId;")
        self.engine.run("studio.edit('speed', 0.4); return true;")
        self.until(f"studio.designId !== {json.dumps(first)} && !studio.busy")
        edited = self.engine.run("return studio.designId;")
        self.engine.run("document.getElementById('undo').click(); return true;")
        self.until(f"studio.designId === {json.dumps(first)} && !studio.busy")
        self.engine.run("document.getElementById('redo').click(); return true;")
        self.until(f"studio.designId === {json.dumps(edited)} && !studio.busy")
        self.assert_engine_frame(15)
        self.engine.run("document.getElementById('fullscreen').click(); return true;")
        size = self.engine.run("return [innerWidth, innerHeight];")
        self.until(f"studio.preview.design.width === {size[0]} && studio.preview.design.height === {size[1]}")
        self.assertIn(f"/frames/{size[0]}x{size[1]}/", self.assert_engine_frame(30))
        self.engine.run("studio.leaveFullScreen(); return true;")

    def test_phone_width_has_no_overflow_and_one_scroll_area(self):
        self.narrow(390, 844)
        try:
            self.load()
            # MiniBrowser's window is no narrower than 447 CSS pixels: WebKit is checked at that.
            self.assertLessEqual(self.engine.run("return innerWidth;"), 390 if self.ENGINE is Firefox else 447)
            for view in ("design", "gallery", "export", "match", "saved"):
                self.engine.run(f"studio.showTab({json.dumps(view)}); return true;")
                found = self.engine.run(f"return {OVERFLOW};")
                self.assertLessEqual(found["document"], found["width"], f"{self.engine.name} {view}")
                self.assertEqual(found["wide"], [], f"{self.engine.name} {view}")
                scrollers = self.engine.run(f"return {SCROLLERS};")
                self.assertLessEqual(len(scrollers), 1, f"{self.engine.name} {view}: {scrollers}")
        finally:
            self.narrow(None, None)


class FirefoxStudioTest(EngineStudio, unittest.TestCase):
    ENGINE = Firefox

    def narrow(self, width, height):
        from engines import VIEWPORT
        width, height = (width, height) if width else VIEWPORT
        self.engine.bidi.send("browsingContext.setViewport", context=self.engine.context,
                              viewport={"width": width, "height": height}, devicePixelRatio=1)


class WebKitStudioTest(EngineStudio, unittest.TestCase):
    ENGINE = WebKit

    def narrow(self, width, height):
        from engines import VIEWPORT
        width, height = (width, height) if width else VIEWPORT
        driver = self.engine.driver
        driver.set_window_rect(0, 0, width, height)
        inner = driver.execute_script("return [innerWidth, innerHeight]")
        driver.set_window_rect(0, 0, 2 * width - inner[0], 2 * height - inner[1])


if __name__ == "__main__":
    unittest.main()
