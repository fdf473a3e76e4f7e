"""Undo and redo in the studio (issue 38, target 3): 50 edits of every kind, made as a person
makes them (typing, keys, clicks, the palette dialog, a preset change, Surprise me), undone one
by one with Ctrl+Z give back the original design id, and redone with Shift+Ctrl+Z give back
the last. A drag is one step, and a preset change that would discard edits asks first.
"""

import json
import unittest

import numpy as np
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import wait_for
from studio_page import DESKTOP, StudioPage, png_bytes


def sunset(width=320, height=180):
    """A sunset: orange sky over purple, with a small yellow sun (3% of the picture)."""
    y = np.linspace(0, 1, height)[:, None, None]
    sky = np.array([255, 120, 40]) * (1 - y) + np.array([90, 30, 110]) * y
    image = np.broadcast_to(sky, (height, width, 3)).copy()
    yy, xx = np.mgrid[0:height, 0:width]
    sun = (xx - width * 0.7) ** 2 + (yy - height * 0.35) ** 2 < (height * 0.1) ** 2
    image[sun] = [255, 230, 60]
    return image.round().astype(np.uint8)


class StudioUndoTest(StudioPage):
    WINDOW = DESKTOP

    def step(self, action, expected):
        """Does one edit and waits until it is history entry `expected` and sent."""
        action()
        wait_for(self.driver, f"studio.history.index === {expected} && !studio.busy", timeout=30)

    def key(self, selector, *keys):
        element = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'}), arguments[0].focus(), true", element)
        element.send_keys(*keys)

    def palette(self):
        """Colours from an image: the dialog, two colours kept and one picked on the sun."""
        self.upload("#palette-file", sunset(), "sunset.png")
        wait_for(self.driver, "document.getElementById('palette-dialog').open"
                              " && document.querySelectorAll('[data-swatch]').length > 0", timeout=30)
        canvas = self.find("#palette-image")
        width, height = canvas.size["width"], canvas.size["height"]
        ActionChains(self.driver).move_to_element_with_offset(
            canvas, round(width * 0.2), round(-height * 0.15)).click().perform()
        wait_for(self.driver, "document.querySelector('#palette-swatches .hint')")
        boxes = self.find_all("[data-swatch]")
        for box in boxes[2:-1]:
            box.click()  # leave out all but the first two found and the picked one
        self.find("#palette-apply").click()

    def preset_change(self, name):
        self.tab("gallery")
        self.click(f'[data-preset="{name}"]')
        wait_for(self.driver, "document.getElementById('confirm-dialog').open")
        self.find("#confirm-ok").click()
        self.tab("design")

    def surprise(self, seed):
        """Surprise me from `seed` (the page offers a random one; the test's sequence is fixed)."""
        self.tab("gallery")
        self.type_into("#surprise-seed", str(seed))
        self.click("#surprise")
        self.tab("design")

    def toggle(self, key, a, b):
        """`a`, unless the preset's `key` (a dotted path) is `a` already; then `b`."""
        value = self.preset()
        for part in key.split("."):
            value = value[part]
        return b if str(value) == str(a) else a

    def background(self, a, b):
        """Clicks background kind `a` (color, linear, radial, conic), or `b` when it is `a` already."""
        fill = self.preset()["background"]
        kind = "color" if isinstance(fill, str) else fill["type"]
        self.click(f'label[for="background-{b if kind == a else a}"]')

    def edges(self):
        """The next choice of the edges menu by the keyboard, or the one before at the last."""
        last = self.js("document.querySelector('[data-input=\"edges\"]').options.length - 1")
        at_end = self.js("document.querySelector('[data-input=\"edges\"]').selectedIndex") == last
        self.key('[data-input="edges"]', Keys.ARROW_UP if at_end else Keys.ARROW_DOWN)

    def edits(self):
        """Every kind of edit the page has, in a cycle; each call makes a new design."""
        counter = iter(range(1000))
        kinds = [
            lambda: self.type_into('[data-input="colors[0]"]', f"#{next(counter) * 40 % 256:02X}3366"),
            lambda: self.click('[data-add="colors"]'),
            lambda: self.click('[data-list="colors"] li:last-child [data-role="remove"]'),
            lambda: self.click('[data-list="colors"] [data-role="down"][data-index="0"]'),
            lambda: self.click('[data-add="highlights"]'),
            lambda: self.background("linear", "radial"),
            lambda: self.key('[data-dial="background.angle"]', Keys.PAGE_UP),
            lambda: self.key(".stop-handle", Keys.ARROW_RIGHT),
            lambda: self.background("color", "linear"),
            lambda: self.key('[data-range="blobSize"] [data-thumb="max"]', Keys.ARROW_LEFT),
            lambda: self.key('[data-range="opacity"] [data-thumb="min"]', Keys.ARROW_RIGHT),
            lambda: self.type_into('[data-input="blobAspect.max"]', self.toggle("blobAspect.max", 1.5, 1.6)),
            lambda: self.key('[data-range="retargetInterval"] [data-thumb="max"]', Keys.ARROW_RIGHT),
            lambda: self.key('[data-slider="speed"]', Keys.ARROW_RIGHT),
            lambda: self.type_into('[data-input="blur"]', self.toggle("blur", 0.6, 0.7)),
            lambda: self.click('[data-shuffle="seed"]'),
            lambda: self.type_into('[data-input="seed"]', str(1000 + next(counter))),
            self.edges,
            lambda: self.type_into('[data-input="pointScale"]', self.toggle("pointScale", 1.25, 1.5)),
            lambda: self.type_into('[data-input="size"]', f"{1280 + next(counter) * 2}x720"),
            lambda: self.type_into('[data-input="fps"]', self.toggle("fps", 30, 24)),
            lambda: self.type_into('[data-input="duration"]', self.toggle("duration", 6, 8)),
            lambda: self.click('[data-input="loop"]'),
            lambda: self.type_into('[data-input="name"]', f"mine-{next(counter)}"),
            self.palette,
            lambda: self.preset_change(["aurora", "ember", "ocean"][next(counter) % 3]),
            lambda: self.surprise(7 + next(counter)),
        ]
        while True:
            yield from kinds

    def test_target_3_fifty_edits_undone_and_redone(self):
        original, original_preset = self.design(), self.preset()
        ids = []
        edits = self.edits()
        for n in range(1, 51):
            self.step(next(edits), n)
            ids.append(self.design())
        self.assertEqual(len(ids), 50)
        last = self.design()
        self.js("document.activeElement.blur(), true")
        body = self.find("body")
        for n in range(49, -1, -1):
            body.send_keys(Keys.CONTROL, "z")
            wait_for(self.driver, f"studio.history.index === {n}")
        self.settle()
        self.assertEqual(self.design(), original, "undoing every edit does not give back the original design")
        self.assertEqual(self.preset(), original_preset)
        for n in range(1, 51):
            body.send_keys(Keys.CONTROL, Keys.SHIFT, "z")
            wait_for(self.driver, f"studio.history.index === {n}")
        self.settle()
        self.assertEqual(self.design(), last, "redoing every edit does not give back the last design")
        self.assertTrue(self.find("#redo").get_attribute("disabled"))

    def test_a_drag_is_one_step_and_buttons_undo(self):
        thumb = self.find('[data-range="blobSize"] [data-thumb="max"]')
        before = self.design()
        ActionChains(self.driver).move_to_element(thumb).click_and_hold().move_by_offset(-10, 0) \
            .move_by_offset(-10, 0).move_by_offset(-10, 0).release().perform()
        self.edited(before)
        self.assertEqual(self.js("studio.history.index"), 1)
        self.find("#undo").click()
        wait_for(self.driver, f"studio.designId === {json.dumps(before)} && !studio.busy")
        self.find("#redo").click()
        wait_for(self.driver, f"studio.designId !== {json.dumps(before)} && !studio.busy")

    def test_a_preset_change_asks_before_discarding_edits(self):
        before = self.design()
        self.type_into('[data-input="colors[0]"]', "#123456")
        self.edited(before)
        self.assertTrue(self.find("#edited").is_displayed())
        edited = self.design()
        self.tab("gallery")
        self.click('[data-preset="aurora"]')
        wait_for(self.driver, "document.getElementById('confirm-dialog').open")
        self.find("#confirm-cancel").click()  # keep editing: nothing changes
        self.assertEqual((self.design(), self.preset()["colors"][0]), (edited, "#123456"))
        self.click('[data-preset="aurora"]')
        wait_for(self.driver, "document.getElementById('confirm-dialog').open")
        self.find("#confirm-ok").click()
        wait_for(self.driver, "studio.preset().name === 'aurora' && !studio.busy")
        self.assertFalse(self.find("#edited").is_displayed(), "a loaded preset is not an edit")
        self.js("document.activeElement.blur(), true")
        self.find("body").send_keys(Keys.CONTROL, "z")
        wait_for(self.driver, f"studio.designId === {json.dumps(edited)} && !studio.busy")


if __name__ == "__main__":
    unittest.main()
