"""The studio's layout at a desktop window (1440x900) and a phone's (390x844), in every view
(each side panel, and the dialogs), for issue 38's targets 1 and 2 and its defect 7:

- no horizontal overflow: the document is no wider than the window and no element reaches
  past its right edge;
- every action reachable: each visible control, scrolled into view as a browser does when it
  takes focus, lies inside the window and is what a tap at its centre hits (not covered by the
  pinned preview or cut off by a parent);
- one scroll area per view: at most one element (the document included) scrolls;
- axe-core (4.x, from the axe-playwright-python package, run in the page) finds no serious or
  critical violation.
"""

import base64
import json
import unittest

import numpy as np

from harness import wait_for
from studio_page import DESKTOP, PHONE, StudioPage, axe_script, png_bytes

VIEWS = ["design", "gallery", "export", "match", "saved"]

# Controls a person can act on, visible in the current view (inside the open dialog, if any).
CONTROLS = """[...(document.querySelector('dialog[open]') || document).querySelectorAll(
    'button, a[href], input:not([type=file]), select, textarea, [tabindex="0"], [role=slider], [role=tab]')]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
                   && !e.closest('[hidden], dialog:not([open])'))"""

OVERFLOW = """(() => {
    const width = innerWidth;
    const wide = [...document.querySelectorAll('body *')].filter((e) => {
        if (!e.getClientRects().length) return false;
        const r = e.getBoundingClientRect();
        return r.right > width + 0.5 && r.width > 0;
    }).map((e) => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
    return {document: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
})()"""

SCROLLERS = """(() => {
    const list = [];
    const doc = document.scrollingElement;
    if (doc.scrollHeight > innerHeight + 1 && getComputedStyle(document.body).overflowY !== 'hidden') list.push('document');
    for (const e of document.querySelectorAll('body *')) {
        const style = getComputedStyle(e);
        const y = /(auto|scroll)/.test(style.overflowY) && e.scrollHeight > e.clientHeight + 1;
        const x = /(auto|scroll)/.test(style.overflowX) && e.scrollWidth > e.clientWidth + 1;
        if ((x || y) && e.getClientRects().length) list.push(e.tagName + '#' + e.id + '.' + e.className);
    }
    return list;
})()"""

REACHABLE = """(() => {
    const problems = [];
    const controls = %s;
    for (const control of controls) {
        // A visually hidden radio is acted on through its label.
        const label = control.id ? document.querySelector('label[for="' + CSS.escape(control.id) + '"]') : null;
        const hiddenInput = control.tagName === 'INPUT' && getComputedStyle(control).opacity === '0';
        const e = hiddenInput && label ? label : control;
        e.scrollIntoView({block: 'center', inline: 'nearest'});
        const r = e.getBoundingClientRect();
        const name = e.tagName + '#' + e.id + '[' + (e.getAttribute('aria-label') || e.textContent.trim().slice(0, 20)) + ']';
        if (r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5 || r.bottom > innerHeight + 0.5) {
            if (r.width <= innerWidth && r.height <= innerHeight) { problems.push(name + ' outside the window'); continue; }
        }
        const x = Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2));
        const y = r.height > innerHeight / 2 ? innerHeight / 2
            : Math.min(innerHeight - 1, Math.max(0, r.top + Math.min(r.height / 2, 10)));
        const hit = document.elementFromPoint(x, y);
        const ok = hit && (hit === e || e.contains(hit) || hit.contains(e) || (label && (label === hit || label.contains(hit))));
        if (!ok) problems.push(name + ' covered by ' + (hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing'));
    }
    window.scrollTo(0, 0);
    return [controls.length, problems];
})()""" % CONTROLS


class LayoutChecks:
    """The checks of one window size, run in every view."""

    def views(self):
        """Shows each view in turn (the side's panels, then the palette and confirm dialogs)."""
        for name in VIEWS:
            self.tab(name)
            if name == "gallery":
                wait_for(self.driver, "studio.gallery.stats.thumbnailsDone !== null", timeout=30)
            yield name

    def assert_no_horizontal_overflow(self, view):
        found = self.js(OVERFLOW)
        self.assertLessEqual(found["document"], found["width"], f"{view}: the document is wider than the window")
        self.assertEqual(found["wide"], [], f"{view}: elements reach past the window's right edge")

    def assert_one_scroll_area(self, view):
        scrollers = self.js(SCROLLERS)
        self.assertLessEqual(len(scrollers), 1, f"{view}: more than one scroll area: {scrollers}")

    def assert_reachable(self, view):
        count, problems = self.js(REACHABLE)
        self.assertGreater(count, 5, view)
        self.assertEqual(problems, [], f"{view}: actions out of reach")

    def test_target_1_no_overflow_every_action_reachable_one_scroll_area(self):
        for view in self.views():
            self.assert_no_horizontal_overflow(view)
            self.assert_one_scroll_area(view)
            self.assert_reachable(view)
        # The top bar's actions (defect 7: Copy link and JSON were off-screen on a phone).
        for selector in ("#undo", "#redo", "#save", "#share", "#download-json"):
            box = self.find(selector).rect
            self.assertLessEqual(box["x"] + box["width"], self.js("innerWidth") + 0.5, selector)
        time = self.find("#time")
        self.assertLessEqual(self.js("arguments[0].scrollWidth - arguments[0].clientWidth", time), 0)

    def test_target_1_dialogs(self):
        self.js("studio.openPalette(new File([Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0))],"
                " 'tiny.png', {type: 'image/png'})), true", TINY_PNG)
        wait_for(self.driver, "document.getElementById('palette-dialog').open"
                              " && document.querySelectorAll('#palette-swatches li').length > 0", timeout=30)
        self.assert_no_horizontal_overflow("palette dialog")
        self.assert_one_scroll_area("palette dialog")
        self.assert_reachable("palette dialog")
        self.axe("palette dialog")
        self.js("document.getElementById('palette-dialog').close(), true")

    def axe(self, view):
        if not self.js("typeof axe === 'object'"):
            self.driver.execute_script(axe_script())
        result = self.driver.execute_async_script(
            "const done = arguments[0]; axe.run(document, {resultTypes: ['violations']})"
            ".then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))), (e) => done(String(e)))")
        self.assertIsInstance(result, list, result)
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        self.assertEqual(bad, [], f"{view}: axe-core finds\n{json.dumps(bad, indent=1)}")

    def test_target_2_axe_finds_nothing_serious(self):
        for view in self.views():
            self.axe(view)


class DesktopLayoutTest(LayoutChecks, StudioPage):
    WINDOW = DESKTOP


class PhoneLayoutTest(LayoutChecks, StudioPage):
    WINDOW = PHONE
    MOBILE = True


# A 4x2 PNG of four colours, for the palette dialog.
TINY_PNG = base64.b64encode(png_bytes(np.array(
    [[[255, 0, 0], [255, 0, 0], [0, 0, 255], [0, 0, 255]],
     [[0, 160, 0], [0, 160, 0], [255, 255, 255], [255, 255, 255]]], dtype=np.uint8))).decode()


if __name__ == "__main__":
    unittest.main()
