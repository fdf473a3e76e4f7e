"""The studio page in Debian's Chromium, headless, against the real render service.

Run by `./run test` as
    python3 -m unittest discover -s BrowserTests -v
with FLUIDGRADIENT_STUDIO_BIN naming the built `fluidgradient-studio` (it serves the page
embedded in it) and FLUIDGRADIENT_BIN the built `fluidgradient`.

Every control is driven as a person drives it: typing, mouse drags and key presses sent
through WebDriver. The preview is checked exactly: the canvas's pixels against the PNG the
API serves for the same design, size and instant, decoded by Pillow (the frames are opaque
8-bit sRGB, drawn 1:1, so nothing may change a level). Exports are checked by bytes: the
downloaded JSON and the copied command each rendered by the CLI.
"""

import base64
import glob
import io
import json
import os
import shlex
import subprocess
import tempfile
import time
import unittest

import numpy as np
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import StudioServer, chromium, wait_for

BINARY = os.environ.get("FLUIDGRADIENT_BIN", ".build/release/fluidgradient")
STUDIO = os.environ.get("FLUIDGRADIENT_STUDIO_BIN", "Studio/.build/release/fluidgradient-studio")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Written under .build-browser, not over docs/studio.png: the page shows its own measured
# latency, so two runs differ. The README's copy is one run's, copied by hand.
SCREENSHOT = os.path.join(ROOT, ".build-browser", "studio.png")
SCREENSHOT_BYTES = 300 * 1024
# The frame the pixel checks pause on: 0.5 s, on the preview's 1/30 s grid.
CHECK_FRAME = 15


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def decode(png):
    """A PNG's pixels as an RGBA uint8 array."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


class StudioTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="fluidgradient-studio-")
        cls.downloads = os.path.join(cls.work, "downloads")
        os.makedirs(cls.downloads)
        cls.server = StudioServer(STUDIO, cls.work)
        cls.driver = chromium()
        cls.driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                   {"behavior": "allow", "downloadPath": cls.downloads})

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.close()

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
        wait_for(self.driver, "!studio.busy && studio.lastFrameURL && studio.lastFrameURL.includes(studio.designId)",
                 timeout=30)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def type_into(self, selector, text):
        """Replaces a field's text by typing, as a person does, and leaves the field."""
        field = self.find(selector)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text, Keys.TAB)

    def edited(self, before):
        """Waits for a design other than `before` and its first frame."""
        wait_for(self.driver, f"studio.designId && studio.designId !== {json.dumps(before)}", timeout=30)
        self.settle()

    def pause_at(self, k):
        """Pauses the preview on frame k of the current design and waits until it is drawn."""
        self.js("studio.pause(), studio.seek(arguments[0]), true", k)
        suffix = f"/{k / 30!r}.png" if k % 30 else f"/{k // 30}.png"
        wait_for(self.driver, f"studio.preview.drawn === {k} && studio.lastFrameURL.includes(studio.designId)"
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

    def assert_preview_is_engine_frame(self):
        """The canvas holds, exactly, the API's PNG of the frame it claims to show."""
        self.pause_at(CHECK_FRAME)
        shown = self.canvas()
        url = self.js("studio.lastFrameURL")
        expected = decode(self.server.get(url))
        self.assertEqual(shown.shape, expected.shape, url)
        differing = int(np.count_nonzero(np.any(shown != expected, axis=2)))
        self.assertEqual(differing, 0, f"{differing} pixels of the canvas differ from {url}")
        return url

    def preset(self):
        return self.js("studio.preset()")

    # ---- the tests -----------------------------------------------------------------------

    def test_colour_edit_reaches_the_preview(self):
        before = self.js("studio.designId")
        self.type_into('[data-input="colors[0]"]', "#00FF88")
        self.edited(before)
        self.assertEqual(self.preset()["colors"][0], "#00FF88")
        self.assertEqual(self.find('[data-role="picker"][data-index="0"]').get_attribute("value"), "#00ff88")
        self.assert_preview_is_engine_frame()

    def test_range_thumb_by_mouse_then_keyboard(self):
        start = self.preset()["blobSize"]
        thumb = self.find('[data-range="blobSize"] [data-thumb="max"]')
        before = self.js("studio.designId")
        ActionChains(self.driver).move_to_element(thumb).click_and_hold().move_by_offset(-20, 0).release().perform()
        self.edited(before)
        dragged = self.preset()["blobSize"]
        self.assertLess(dragged["max"], start["max"])
        self.assertGreaterEqual(dragged["max"], dragged["min"])
        self.assertAlmostEqual(dragged["max"] * 100, round(dragged["max"] * 100), places=9, msg="off the 0.01 step")
        self.assertEqual(float(thumb.get_attribute("aria-valuenow")), dragged["max"])

        before = self.js("studio.designId")
        thumb.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        self.edited(before)
        self.assertAlmostEqual(self.preset()["blobSize"]["max"], dragged["max"] + 0.03, places=9)

        # Clamping: the min thumb dragged past the max stops at the max; End takes the max to the track's end.
        low = self.find('[data-range="blobSize"] [data-thumb="min"]')
        past = thumb.location["x"] - low.location["x"] + 30
        ActionChains(self.driver).move_to_element(low).click_and_hold().move_by_offset(past, 0).release().perform()
        wait_for(self.driver, "studio.preset().blobSize.min === studio.preset().blobSize.max")
        self.find('[data-range="blobSize"] [data-thumb="max"]').send_keys(Keys.END)
        wait_for(self.driver, "studio.preset().blobSize.max === 2")
        self.settle()
        self.assertEqual(self.find('[data-range="blobSize"] [data-thumb="max"]').get_attribute("aria-valuetext"), "2")
        self.assert_preview_is_engine_frame()

    def test_gradient_stops_add_drag_delete(self):
        before = self.js("studio.designId")
        self.find('label[for="background-linear"]').click()
        self.edited(before)
        background = self.preset()["background"]
        self.assertEqual((background["type"], len(background["stops"])), ("linear", 2))

        bar = self.find('[data-stops="background"]')
        before = self.js("studio.designId")
        ActionChains(self.driver).move_to_element_with_offset(bar, -bar.size["width"] // 4, 0).click().perform()
        self.edited(before)
        stops = self.preset()["background"]["stops"]
        self.assertEqual(len(stops), 3)
        self.assertAlmostEqual(stops[1]["location"], 0.25, delta=2 / bar.size["width"])
        self.assertEqual([s["location"] for s in stops], sorted(s["location"] for s in stops))

        # Drag the new stop past the last one: the stops stay sorted.
        handle = self.find('.stop-handle[data-index="1"]')
        past = bar.location["x"] + bar.size["width"] - handle.location["x"]
        ActionChains(self.driver).move_to_element(handle).click_and_hold().move_by_offset(past, 0).release().perform()
        wait_for(self.driver, "studio.preset().background.stops[2].location === 1 && !studio.busy")
        self.assertEqual([s["location"] for s in self.preset()["background"]["stops"]], [0, 1, 1])

        # The angle dial from the keyboard: up turns anticlockwise.
        angle = self.preset()["background"]["angle"]
        self.find('[data-dial="background.angle"]').send_keys(Keys.ARROW_UP)
        wait_for(self.driver, f"studio.preset().background.angle === {(angle + 1) % 360}")

        before = self.js("studio.designId")
        self.find(".stop-handle.selected").send_keys(Keys.DELETE)
        self.edited(before)
        self.assertEqual(len(self.preset()["background"]["stops"]), 2)
        self.find(".stop-handle.selected").send_keys(Keys.DELETE)  # never below two
        self.settle()
        self.assertEqual(len(self.preset()["background"]["stops"]), 2)
        self.assertFalse(self.find('[data-delete="stop"]').is_enabled())
        self.assert_preview_is_engine_frame()

    def test_invalid_value_is_named_and_the_preview_keeps_its_frame(self):
        self.pause_at(CHECK_FRAME)
        design, url, shown = self.js("studio.designId"), self.js("studio.lastFrameURL"), self.canvas()
        speed = self.preset()["speed"]

        def error_at(key):
            return wait_for(self.driver, f"document.querySelector('[data-error-for=\"{key}\"].shown')?.textContent")

        self.type_into('[data-input="speed"]', "20")
        error = error_at("speed")
        self.assertTrue(error.startswith("speed: "), error)
        self.assertIn("outside the allowed range 0...10", error)
        self.type_into('[data-input="speed"]', str(speed))
        wait_for(self.driver, "!document.querySelector('[data-error-for].shown') && !studio.busy")
        self.type_into('[data-input="blobSize.min"]', "1.9")
        error = error_at("blobSize")
        self.assertTrue(error.startswith("blobSize"), error)
        self.assertIn("greater than max", error)
        time.sleep(0.3)  # a frame the preview should not draw would have arrived by now
        self.assertEqual((self.js("studio.designId"), self.js("studio.lastFrameURL")), (design, url))
        self.assertTrue(np.array_equal(self.canvas(), shown), "the preview changed after a refused edit")

        self.type_into('[data-input="blobSize.min"]', "0.2")
        self.edited(design)
        self.assertEqual(self.js("document.querySelectorAll('[data-error-for].shown').length"), 0)

    def test_exported_json_and_command_render_the_same_bytes(self):
        Select(self.find("#preset-select")).select_by_value("dusk")
        wait_for(self.driver, "studio.preset().name === 'dusk' && !studio.busy")
        self.settle()
        before = self.js("studio.designId")
        self.find('[data-range="opacity"] [data-thumb="min"]').send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
        self.edited(before)
        # A CSS colour name and no highlights at all: both must survive the trip to flags.
        before = self.js("studio.designId")
        self.type_into('[data-input="colors[2]"]', "teal")
        self.edited(before)
        before = self.js("studio.designId")
        self.find('[data-list="highlights"] [data-role="remove"]').click()
        self.edited(before)
        self.assertEqual(self.preset()["highlights"], [])

        for old in glob.glob(os.path.join(self.downloads, "*")):
            os.remove(old)
        self.find("#download-json").click()
        path = self.downloaded("dusk.json")
        with open(path) as handle:
            self.assertEqual(json.load(handle), self.preset())
        command = self.copied_command()
        self.assertIn("--background 'linear 300 ", command)
        self.assertIn(" --highlights '' ", command)

        work = tempfile.mkdtemp(dir=self.work)
        subprocess.run([BINARY, "render", "--quiet", "--preset", path, "--time", "0.5", "-o", "from-json.png"],
                       cwd=work, check=True)
        words = shlex.split(command)
        self.assertEqual(words[:2], ["fluidgradient", "render"])
        words[words.index("-o") + 1] = "from-command.png"
        subprocess.run([BINARY, *words[1:], "--quiet", "--time", "0.5"], cwd=work, check=True)
        json_bytes = read_bytes(os.path.join(work, "from-json.png"))
        command_bytes = read_bytes(os.path.join(work, "from-command.png"))
        self.assertEqual(json_bytes, command_bytes, "the command and the JSON render different bytes")
        # The service's frame at the design's own size and that instant is the CLI's, byte for byte.
        design = self.js("studio.designId")
        self.assertEqual(self.server.get(f"/v1/designs/{design}/frames/1920x1080/0.5.png"), json_bytes)

    def downloaded(self, name):
        path = os.path.join(self.downloads, name)
        deadline = time.monotonic() + 20
        while not os.path.exists(path):
            self.assertLess(time.monotonic(), deadline, f"no {name} in {os.listdir(self.downloads)}")
            time.sleep(0.1)
        return path

    def copied_command(self):
        """What the Copy command button puts on the clipboard (and the command shown)."""
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.find("#copy-command").click()
        wait_for(self.driver, "document.getElementById('export-note').textContent === 'Command copied.'")
        copied = self.driver.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('ERROR ' + e))")
        self.assertEqual(copied, self.js("studio.command()"))
        self.assertEqual(self.find("#command").text.replace("\n", ""), copied.replace("\n", ""))
        return copied

    def test_shared_url_restores_the_design(self):
        before = self.js("studio.designId")
        self.type_into('[data-input="colors[1]"]', "#123456")
        self.edited(before)
        before = self.js("studio.designId")
        self.find('label[for="background-conic"]').click()
        self.edited(before)
        before = self.js("studio.designId")
        self.find('[data-range="retargetInterval"] [data-thumb="max"]').send_keys(Keys.PAGE_UP)
        self.edited(before)
        preset, design, url = self.preset(), self.js("studio.designId"), self.js("studio.shareURL()")
        self.assertIn("#preset=", url)

        self.open(url)
        self.assertEqual(self.preset(), preset)
        self.assertEqual(self.js("studio.designId"), design)
        self.assertEqual(self.find('[data-input="colors[1]"]').get_attribute("value"), "#123456")
        self.assertTrue(self.find("#background-conic").is_selected())
        self.assert_preview_is_engine_frame()

    def test_match_scores_a_design_against_itself(self):
        Select(self.find("#match-preset")).select_by_value("default")
        # The score and the details are filled one after the other: wait for the details too.
        details = wait_for(self.driver, "document.getElementById('match-score').textContent !== '–'"
                                        " && !document.getElementById('match-details').textContent"
                                        ".startsWith('Comparing')"
                                        " && document.getElementById('match-details').textContent")
        self.assertEqual(self.find("#match-score").text, "100.0")
        self.assertIn("largest difference 0 levels", details)

    def job_labels(self):
        """Starts recording every text the job label shows (a MutationObserver misses none
        between polls); `jobLabels` in the page holds them."""
        self.js("""(window.jobLabels = [], new MutationObserver(() => jobLabels.push(
            document.getElementById('job-label').textContent)).observe(document.getElementById('job-label'),
            {childList: true, characterData: true, subtree: true}), true)""")

    def test_a_bundle_job_says_what_it_does_after_its_frames(self):
        # Issue 38, defect 5: a bundle job sat at "Rendering 100%" while it encoded and measured.
        for key, value in (("size", "256x144"), ("duration", "1")):
            before = self.js("studio.designId")
            self.type_into(f'[data-input="{key}"]', value)
            self.edited(before)
        self.job_labels()
        Select(self.find("#job-format")).select_by_value("bundle")
        self.find("#job-start").click()
        wait_for(self.driver, "['Done', 'Downloaded'].includes(document.getElementById('job-label').textContent)"
                              " || document.getElementById('job-label').textContent.startsWith('Failed')",
                 timeout=300)
        labels = self.js("jobLabels")
        self.assertEqual(self.find("#job-label").text, "Done", labels)
        self.assertTrue(any(label.startswith("Encoding") and "AV1" in label and "posters" in label
                            for label in labels), labels)
        self.assertTrue(any(label.startswith("Measuring") and "files" in label for label in labels), labels)
        self.assertFalse(any(label.startswith("Rendering") for label in labels), labels)

    def test_a_cancelled_job_empties_its_progress_bar(self):
        # Issue 38, defect 10: a cancelled job left its progress bar where it stopped.
        Select(self.find("#job-format")).select_by_value("mp4")
        self.find("#job-start").click()
        wait_for(self.driver, "document.getElementById('job-progress').value > 0", timeout=120)
        self.find("#job-cancel").click()
        wait_for(self.driver, "document.getElementById('job-label').textContent === 'Cancelled'")
        self.assertEqual(self.js("document.getElementById('job-progress').value"), 0)
        self.assertEqual(self.find("#job-progress").get_attribute("aria-valuetext"), "cancelled")
        self.assertTrue(self.find("#job-cancel").get_attribute("hidden"))

    def test_screenshot_for_the_readme(self):
        Select(self.find("#preset-select")).select_by_value("dusk")
        wait_for(self.driver, "studio.preset().name === 'dusk'")
        self.settle()
        self.pause_at(45)
        self.js("document.activeElement.blur(), document.querySelector('.stage').scrollTop = 0, true")
        image = Image.open(io.BytesIO(self.driver.get_screenshot_as_png())).convert("RGB")
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        save_small_png(image, SCREENSHOT, SCREENSHOT_BYTES)
        self.assertLess(os.path.getsize(SCREENSHOT), SCREENSHOT_BYTES)


class StudioTokenTest(unittest.TestCase):
    """A service started with --token: the page asks for the token once and keeps it for the tab."""

    TOKEN = "studio-browser-test-token"

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="fluidgradient-studio-token-")
        cls.server = StudioServer(STUDIO, cls.work, ["--token", cls.TOKEN])
        cls.driver = chromium()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.close()

    def test_page_asks_for_the_token_once(self):
        driver = self.driver
        driver.get(self.server.url + "/")
        wait_for(driver, "document.getElementById('token-dialog').open")
        field = driver.find_element(By.CSS_SELECTOR, "#token-dialog input")
        field.send_keys("wrong-token", Keys.ENTER)
        # A wrong token is refused by the service; the page asks again rather than failing silently.
        wait_for(driver, "document.getElementById('token-dialog').open && !sessionStorage.getItem("
                         "'fluidgradient-studio-token')", timeout=30)
        field = driver.find_element(By.CSS_SELECTOR, "#token-dialog input")
        field.send_keys(self.TOKEN, Keys.ENTER)
        wait_for(driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0", timeout=60)
        self.assertEqual(driver.execute_script("return sessionStorage.getItem('fluidgradient-studio-token')"),
                         self.TOKEN)
        driver.refresh()
        wait_for(driver, "window.studio && studio.designId && studio.stats.framesDrawn > 0", timeout=60)
        self.assertFalse(driver.execute_script("return document.getElementById('token-dialog').open"))


def save_small_png(image, path, limit):
    """Saves `image` as a PNG under `limit` bytes if it can: in full colour, else as 256
    colours with error diffusion (which keeps the gradients free of bands), else that at 3/4 size."""
    image.save(path, optimize=True)
    if os.path.getsize(path) < limit:
        return
    for scale in (1, 0.75):
        scaled = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
        palette = scaled.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        scaled.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG).save(path, optimize=True)
        if os.path.getsize(path) < limit:
            return


if __name__ == "__main__":
    unittest.main()
