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
from studio_page import BINARY, CHECK_FRAME, DESKTOP, PHONE, ROOT, STUDIO, StudioPage, decode, read_bytes

# Written under .build-browser, not over docs/studio.png: the page shows its own measured
# latency, so two runs differ. The docs' copy is one run's, copied by hand.
SCREENSHOT = os.path.join(ROOT, ".build-browser", "studio.png")
PHONE_SCREENSHOT = os.path.join(ROOT, ".build-browser", "studio-phone.png")
SCREENSHOT_BYTES = 300 * 1024


class StudioTest(StudioPage):
    WINDOW = DESKTOP

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
        self.assertEqual(self.find('[data-range="blobSize"] [data-thumb="max"]').get_attribute("aria-valuetext"), "2×")
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

        # Past the slider's end: refused by the page in the slider's words, nothing sent.
        self.type_into('[data-input="speed"]', "20")
        self.assertEqual(error_at("speed"), "Speed: 20× is more than 3×, the slider's end")
        self.type_into('[data-input="speed"]', str(speed))
        wait_for(self.driver, "!document.querySelector('[data-error-for].shown') && !studio.busy")
        # Refused by the library, said with the control's label and units.
        self.type_into('[data-input="blobSize.min"]', "1.9")
        error = error_at("blobSize")
        self.assertRegex(error, r"^Blob size: the smallest \(1\.9×\) is more than the largest \([\d.]+×\)$")
        time.sleep(0.3)  # a frame the preview should not draw would have arrived by now
        self.assertEqual((self.js("studio.designId"), self.js("studio.lastFrameURL")), (design, url))
        self.assertTrue(np.array_equal(self.canvas(), shown), "the preview changed after a refused edit")

        self.type_into('[data-input="blobSize.min"]', "0.2")
        self.edited(design)
        self.assertEqual(self.js("document.querySelectorAll('[data-error-for].shown').length"), 0)

    def test_exported_json_and_command_render_the_same_bytes(self):
        self.tab("gallery")
        Select(self.find("#preset-select")).select_by_value("dusk")
        wait_for(self.driver, "studio.preset().name === 'dusk' && !studio.busy")
        self.settle()
        self.tab("design")
        before = self.js("studio.designId")
        self.find('[data-range="opacity"] [data-thumb="min"]').send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
        self.edited(before)
        # A CSS colour name and no highlights at all: both must survive the trip to flags.
        before = self.js("studio.designId")
        self.type_into('[data-input="colors[2]"]', "teal")
        self.edited(before)
        before = self.js("studio.designId")
        self.click('[data-list="highlights"] [data-role="remove"]')
        self.edited(before)
        self.assertEqual(self.preset()["highlights"], [])

        for old in glob.glob(os.path.join(self.downloads, "*")):
            os.remove(old)
        self.find("#download-json").click()
        path = self.downloaded("dusk.json")
        with open(path) as handle:
            self.assertEqual(json.load(handle), self.preset())
        self.tab("export")
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

    def test_grain_control_sets_the_key_its_command_and_its_errors(self):
        self.settle()
        before = self.js("studio.designId")
        self.type_into('[data-input="grain.amount"]', "0.1")
        self.edited(before)
        before = self.js("studio.designId")
        self.find("#field-grain-animated").click()
        self.edited(before)
        self.assertEqual(self.preset()["grain"], {"amount": 0.1, "size": 1, "animated": True, "mono": True})
        self.assertEqual(self.find('[data-slider="grain.amount"]').get_attribute("aria-valuetext"), "10%")
        command = self.js("studio.command()")
        self.assertIn(" --grain 0.1 --grain-size 1 --grain-animated --grain-mono ", command)
        work = tempfile.mkdtemp(dir=self.work)
        words = shlex.split(command)
        words[words.index("-o") + 1] = "from-command.png"
        subprocess.run([BINARY, *words[1:], "--quiet", "--time", "0.5"], cwd=work, check=True)
        design = self.js("studio.designId")
        self.assertEqual(self.server.get(f"/v1/designs/{design}/frames/1920x1080/0.5.png"),
                         read_bytes(os.path.join(work, "from-command.png")))
        self.type_into('[data-input="grain.amount"]', "1.5")
        error = wait_for(self.driver, "document.querySelector('[data-error-for=\"grain\"].shown')?.textContent")
        # In the page's words, not the key path (issue 38): the field is named as its label says.
        self.assertEqual(error, "Grain amount: 1.5 is outside 0 to 1")
        self.type_into('[data-input="grain.amount"]', "0")
        wait_for(self.driver, "!document.querySelector('[data-error-for].shown') && !studio.busy")

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
        self.tab("match")
        Select(self.find("#match-preset")).select_by_value("default")
        # The score and the details are filled one after the other: wait for the details too.
        details = wait_for(self.driver, "document.getElementById('match-score').textContent !== '–'"
                                        " && !document.getElementById('match-details').textContent"
                                        ".startsWith('Comparing')"
                                        " && document.getElementById('match-details').textContent")
        self.assertEqual(self.find("#match-score").text, "100.0")
        self.assertEqual(self.find("#match-verdict").text, "nearly the same")
        self.assertIn("largest difference 0 levels", details)

    def test_screenshot_for_the_docs(self):
        self.tab("gallery")
        Select(self.find("#preset-select")).select_by_value("dusk")
        wait_for(self.driver, "studio.preset().name === 'dusk'")
        self.settle()
        self.tab("design")
        self.pause_at(45)
        self.js("document.activeElement.blur(), true")
        shoot(self.driver, SCREENSHOT)
        # At a phone's size, from the top: the top bar's actions, the preview and the tabs.
        try:
            self.size(*PHONE, mobile=True)
            self.js("window.scrollTo(0, 0), true")
            self.pause_at(45)
            shoot(self.driver, PHONE_SCREENSHOT)
        finally:
            self.size(*self.WINDOW)


def shoot(driver, path):
    """Saves the window as a PNG under SCREENSHOT_BYTES."""
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    save_small_png(image, path, SCREENSHOT_BYTES)
    assert os.path.getsize(path) < SCREENSHOT_BYTES, path


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
