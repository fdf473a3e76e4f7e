"""The studio's tools for finding a design (issue 38), each driven as a person drives it in
headless Chromium at 1440x900 and checked on what comes out: the engine's own pixels for the
preview, the bytes for downloads, the preset for edits.
"""

import io
import json
import os
import subprocess
import unittest
import urllib.request

import numpy as np
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import wait_for
from studio_page import DESKTOP, StudioPage, decode, read_bytes
from test_studio_undo import sunset


class StudioToolsTest(StudioPage):
    WINDOW = DESKTOP

    def post(self, path, body):
        request = urllib.request.Request(self.server.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    # ---- gallery and surprise ------------------------------------------------------------

    def test_gallery_shows_every_preset_with_its_engine_thumbnail(self):
        presets = json.loads(self.server.get("/v1/presets"))["presets"]
        self.tab("gallery")
        wait_for(self.driver, "studio.gallery.stats.thumbnailsDone !== null", timeout=60)
        cards = self.find_all("[data-preset]")
        self.assertEqual([c.get_attribute("data-preset") for c in cards], [p["name"] for p in presets])
        for card, preset in zip(cards, presets):
            self.assertIn(preset["description"], card.text)
        shown = self.js("[...document.querySelectorAll('[data-thumbnail]')].map((i) => [i.naturalWidth, i.src])")
        for (width, src), preset in zip(shown, presets):
            self.assertEqual(width, 256, src)
            self.assertEqual(src, f"{self.server.url}/v1/designs/{preset['design']}/frames/256x144/2.png")
        self.click('[data-preset="ember"]')  # no edits yet: no question
        wait_for(self.driver, "studio.preset().name === 'ember' && !studio.busy")
        ember = next(p for p in presets if p["name"] == "ember")
        self.assertEqual(self.design(), ember["design"])
        self.assertEqual(self.find('[data-preset="ember"]').get_attribute("aria-current"), "true")

    def test_surprise_draws_the_same_design_from_the_same_seed(self):
        self.tab("gallery")
        first = self.design()
        self.type_into("#surprise-seed", "42")
        self.click("#surprise")
        self.edited(first)
        drawn, preset = self.design(), self.preset()
        self.assertEqual(preset["name"], "surprise-42")
        self.assertNotEqual(self.find("#surprise-seed").get_attribute("value"), "42")
        # The seeds drawn run to ten digits; the field showed six (`.num`'s width won).
        self.type_into("#surprise-seed", "4199080128")
        field = self.find("#surprise-seed")
        self.assertLessEqual(self.js("arguments[0].scrollWidth - arguments[0].clientWidth", field), 0,
                             "a ten-digit seed does not fit the field")
        self.find("#undo").click()
        wait_for(self.driver, f"studio.designId === {json.dumps(first)} && !studio.busy")
        self.type_into("#surprise-seed", "42")
        self.click("#surprise")
        self.edited(first)
        self.assertEqual((self.design(), self.preset()), (drawn, preset))
        self.assert_preview_is_engine_frame()

    # ---- layers, full screen, hold to compare ----------------------------------------------

    def test_hidden_blobs_show_the_background_alone_without_an_edit(self):
        design, preset = self.design(), self.preset()
        self.click('[data-layer="blobs"]')
        self.click('[data-layer="highlights"]')
        wait_for(self.driver, f"studio.viewId !== {json.dumps(design)}")
        self.settle()
        self.assertEqual((self.design(), self.preset(), self.js("studio.history.index")), (design, preset, 0))
        self.assert_preview_is_engine_frame()
        # The default preset's background is one colour: with no blob, every pixel is that colour.
        shown = self.canvas()
        background = self.js("FG.model.rgba(studio.preset().background)")
        self.assertTrue(np.all(shown == np.array(background, dtype=np.uint8)), "the blobs still show")
        self.click('[data-layer="blobs"]')
        self.click('[data-layer="highlights"]')
        wait_for(self.driver, f"studio.viewId === {json.dumps(design)}")
        self.settle()

    def test_full_screen_renders_at_the_window_size(self):
        self.click("#fullscreen")
        wait_for(self.driver, "document.body.classList.contains('full')")
        width, height = self.js("[innerWidth, innerHeight]")
        self.pause_at(30)
        self.assertIn(f"/frames/{width}x{height}/1.png", self.js("studio.lastFrameURL"))
        box = self.find("#preview").rect
        self.assertEqual((box["width"], box["height"]), (width, height))
        self.assert_preview_is_engine_frame(30)
        self.find("body").send_keys(Keys.ESCAPE)
        wait_for(self.driver, "!document.body.classList.contains('full')")
        wait_for(self.driver, "!studio.lastFrameURL.includes('/frames/' + innerWidth + 'x')")

    def test_hold_to_compare_shows_the_design_as_loaded(self):
        loaded = self.design()
        self.type_into('[data-input="colors[0]"]', "#00FF88")
        self.edited(loaded)
        edited = self.design()
        self.pause_at(15)
        hold = self.find("#compare-hold")
        ActionChains(self.driver).click_and_hold(hold).perform()
        wait_for(self.driver, f"studio.lastFrameURL.includes({json.dumps(loaded)})")
        self.assertTrue(self.find("#compare-badge").is_displayed())
        self.assertEqual(self.design(), edited, "comparing is not an edit")
        expected = decode(self.server.get(self.js("studio.lastFrameURL")))
        self.assertTrue(np.array_equal(self.canvas(), expected))
        ActionChains(self.driver).release(hold).perform()
        wait_for(self.driver, f"studio.lastFrameURL.includes({json.dumps(edited)})")
        self.assertFalse(self.find("#compare-badge").is_displayed())

    # ---- export: stills, sizes, snippets ---------------------------------------------------

    def test_stills_in_three_formats_at_a_size_preset(self):
        self.tab("export")
        Select(self.find("#export-size")).select_by_value("1080x1080")
        self.type_into("#still-time", "1.5")
        design = self.design()
        for fmt in ("png", "webp", "avif"):
            Select(self.find("#still-format")).select_by_value(fmt)
            self.click("#still-download")
            path = self.downloaded(f"default-1.5s-1080x1080.{fmt}")
            self.assertEqual(read_bytes(path), self.server.get(f"/v1/designs/{design}/frames/1080x1080/1.5.{fmt}"))
        Select(self.find("#export-size")).select_by_value("custom")
        self.type_into("#custom-size", "9000x9000")
        self.click("#still-download")
        self.assertIn("at most 3840 × 2160", wait_for(self.driver, "document.getElementById('custom-size-error')"
                                                                   ".textContent"))
        self.assertEqual(self.find("#custom-size").get_attribute("aria-invalid"), "true")

    def test_a_render_at_a_size_preset_keeps_the_look(self):
        self.type_into('[data-input="duration"]', "0.2")
        self.type_into('[data-input="fps"]', "10")
        wait_for(self.driver, "studio.preset().fps === 10 && !studio.busy")
        self.tab("export")
        Select(self.find("#export-size")).select_by_value("1080x1920")
        Select(self.find("#job-format")).select_by_value("mp4")
        Select(self.find("#job-encode-size")).select_by_value("full")
        self.click("#job-start")
        wait_for(self.driver, "!document.getElementById('job-result').hidden", timeout=120)
        self.click("#job-result")
        path = self.downloaded("default.mp4", timeout=60)
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                "stream=width,height", "-of", "csv=p=0", path], capture_output=True, text=True)
        self.assertEqual(probe.stdout.strip(), "1080,1920")

    def test_swift_snippet_holds_the_design(self):
        self.type_into('[data-input="colors[1]"]', "#123456")
        wait_for(self.driver, "studio.preset().colors[1] === '#123456' && !studio.busy")
        self.tab("export")
        text = self.find("#swift-snippet").text
        start, end = text.index('#"""\n') + 5, text.index('\n"""#')
        self.assertEqual(json.loads(text[start:end]), self.preset())
        # The calls of the library's example, which ./run test builds and runs.
        self.assertIn("try Preset(json: Data(json.utf8), file: \"default.json\")", text)
        self.assertIn("preset.frame(at: 2).pngData()", text)

    def test_bundle_snippet_comes_from_the_rendered_bundle(self):
        self.type_into('[data-input="duration"]', "0.2")
        self.type_into('[data-input="fps"]', "10")
        wait_for(self.driver, "studio.preset().fps === 10 && !studio.busy")
        self.tab("export")
        self.assertFalse(self.find("#html-snippet").is_displayed())
        self.click("#bundle-for-snippet")
        wait_for(self.driver, "!document.getElementById('job-result').hidden", timeout=300)
        self.click("#job-result")
        path = self.downloaded("default.zip", timeout=60)
        snippet = wait_for(self.driver, "studio.snippets.html()")
        page = subprocess.run(["unzip", "-p", path, "index.html"], capture_output=True, text=True).stdout \
            if os.path.exists("/usr/bin/unzip") else None
        self.assertIn('<div class="fluidgradient">', snippet)
        self.assertIn('<source src="loop-av1.mp4" type=\'video/mp4; codecs=&quot;av01.', snippet)
        if page is not None:
            self.assertIn(snippet.split("<style>")[1].split("</style>")[0], page)
        self.assertEqual(self.find("#html-snippet").text.strip(), snippet.strip())

    # ---- saved designs -------------------------------------------------------------------

    def test_saved_designs_are_listed_and_reopened(self):
        self.js("localStorage.clear(), true")
        self.type_into('[data-input="name"]', "my hero")
        self.type_into('[data-input="description"]', "For the landing page")
        before = self.design()
        self.type_into('[data-input="colors[0]"]', "#00AA88")
        self.edited(before)
        self.assertTrue(self.find("#edited").is_displayed())
        self.find("#save").click()
        wait_for(self.driver, "document.getElementById('edited').hidden")
        saved, preset = self.design(), self.preset()
        self.open(self.server.url + "/")
        self.tab("saved")
        entry = self.find("[data-open-saved]")
        self.assertIn("my hero", entry.text)
        self.assertIn("For the landing page", entry.text)
        entry.click()
        wait_for(self.driver, f"studio.designId === {json.dumps(saved)} && !studio.busy")
        self.assertEqual(self.preset(), preset)
        self.assertEqual(self.find("#design-name").text, "my hero")
        self.click("[data-delete-saved]")
        wait_for(self.driver, "document.getElementById('confirm-dialog').open")
        self.find("#confirm-ok").click()
        wait_for(self.driver, "studio.saved.entries().length === 0")

    # ---- colours from an image -----------------------------------------------------------

    def test_palette_keeps_what_is_chosen_and_picks_the_sun(self):
        before = self.design()
        self.upload("#palette-file", sunset(), "sunset.png")
        wait_for(self.driver, "document.querySelectorAll('[data-swatch]').length > 0", timeout=30)
        Select_count = self.find("#palette-count")
        Select_count.send_keys(Keys.CONTROL, "a")
        Select_count.send_keys("3", Keys.TAB)
        wait_for(self.driver, "document.querySelectorAll('[data-swatch]').length === 3", timeout=30)
        found = self.js("[...document.querySelectorAll('#palette-swatches code')].map((c) => c.textContent)")
        canvas = self.find("#palette-image")
        ActionChains(self.driver).move_to_element_with_offset(
            canvas, round(canvas.size["width"] * 0.2), round(-canvas.size["height"] * 0.15)).click().perform()
        wait_for(self.driver, "document.querySelectorAll('[data-swatch]').length === 4")
        sun = self.js("document.querySelectorAll('#palette-swatches code')[3].textContent")
        self.assertEqual(sun, "#FFE63C")
        self.assertEqual(self.design(), before, "nothing changes before the colours are used")
        self.find('[data-swatch="1"]').click()  # leave the second out
        self.find("#palette-apply").click()
        self.edited(before)
        self.assertEqual(self.preset()["colors"], [found[0], found[2], sun])

    # ---- words ---------------------------------------------------------------------------

    def test_angle_convention_and_css_hint(self):
        self.click('label[for="background-linear"]')
        wait_for(self.driver, "studio.preset().background.type === 'linear' && !studio.busy")
        self.type_into('[data-input="background.angle"]', "270")
        hint = wait_for(self.driver, "document.getElementById('help-background-angle').textContent"
                                     ".includes('linear-gradient(180deg')")
        self.assertTrue(hint)
        text = self.find("#help-background-angle").text
        self.assertIn("anticlockwise from east", text)
        self.assertIn("270° top to bottom", text)

    def test_every_design_control_has_a_plain_label_and_a_help_line(self):
        # Issue 38's friction: labels were jargon ("Retarget interval", "Point scale", "Edges:
        # Bleed/Clamp") and no control said what it did.
        for background, shown in (("color", "typeof studio.preset().background === 'string'"),
                                  ("linear", "studio.preset().background.type === 'linear'")):
            self.click(f'label[for="background-{background}"]')
            wait_for(self.driver, f"{shown} && !studio.busy")
            controls = self.js("""[...document.querySelectorAll('[role=tabpanel]:not([hidden]) :is(input, select,'
                + ' textarea, [role=slider])')].filter((e) => e.getClientRects().length && e.type !== 'radio')
                .map((e) => {
                    const labels = e.labels ? [...e.labels].map((l) => l.textContent) : [];
                    const name = e.getAttribute('aria-label') || labels.join(' ') || (e.getAttribute('aria-labelledby')
                        || '').split(' ').map((id) => document.getElementById(id)?.textContent || '').join(' ');
                    const help = (e.getAttribute('aria-describedby') || '').split(' ')
                        .map((id) => document.getElementById(id)?.textContent || '').join(' ').trim();
                    return {control: e.outerHTML.slice(0, 80), name: name.trim(), help};
                })""")
            self.assertGreater(len(controls), 20)
            for control in controls:
                self.assertTrue(control["name"], f"no label: {control}")
            missing = [c for c in controls if len(c["help"]) <= 15]
            self.assertEqual(missing, [], f"controls without a help line: {json.dumps(missing, indent=1)}")
        text = self.find('[role=tabpanel]:not([hidden])').text
        for jargon in ("Retarget", "Point scale", "Bleed", "Clamp", "blobSize", "pointScale"):
            self.assertNotIn(jargon, text)

    def test_blob_size_drag_moves_in_proportion(self):
        thumb = self.find('[data-range="blobSize"] [data-thumb="max"]')
        track = self.find('[data-range="blobSize"]').size["width"]
        start = self.preset()["blobSize"]["max"]
        ActionChains(self.driver).move_to_element(thumb).click_and_hold().move_by_offset(60, 0).release().perform()
        wait_for(self.driver, f"studio.preset().blobSize.max !== {start} && !studio.busy")
        moved = self.preset()["blobSize"]["max"] - start
        self.assertAlmostEqual(moved, 60 / track * 2, delta=0.011)
        self.assertLess(moved, 0.35, "a 60 px drag moves blob size too far")
        start += moved
        thumb = self.find('[data-range="blobSize"] [data-thumb="max"]')
        ActionChains(self.driver).move_to_element(thumb).key_down(Keys.SHIFT).click_and_hold() \
            .move_by_offset(-60, 0).release().key_up(Keys.SHIFT).perform()
        wait_for(self.driver, f"studio.preset().blobSize.max !== {start} && !studio.busy")
        self.assertAlmostEqual(self.preset()["blobSize"]["max"] - start, -60 / track * 0.2, delta=0.011)

    def test_command_lines_break_only_between_words(self):
        self.tab("gallery")
        Select(self.find("#preset-select")).select_by_value("dusk")
        wait_for(self.driver, "studio.preset().name === 'dusk' && !studio.busy")
        self.tab("export")
        broken = self.js("""[...document.querySelectorAll('#command .word')]
            .filter((w) => w.getClientRects().length > 1).map((w) => w.textContent)""")
        for word in broken:
            self.assertIn(",", word, f"{word} breaks inside a token")
        self.assertEqual(self.js("[...document.querySelectorAll('#command .word')].map((w) => w.textContent)"
                                 ".join(' ')"), self.js("studio.command()"))

    def test_encode_size_says_when_it_keeps_the_full_size(self):
        self.tab("export")
        self.assertIn("smaller", self.find("#encode-size-help").text)
        self.tab("design")
        Select(self.find('[data-input="edges"]')).select_by_value("clamp")
        wait_for(self.driver, "studio.preset().edges === 'clamp' && !studio.busy")
        self.tab("export")
        self.assertIn("keeps the full size", self.find("#encode-size-help").text)


if __name__ == "__main__":
    unittest.main()
