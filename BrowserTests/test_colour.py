"""Issue 37's outside references, run as tests (DESIGN section 13).

- Scripts/css-gradients.py: the engine's gradient interpolation in srgb, linear, oklab
  and oklch against Chromium's `linear-gradient(in SPACE, ...)` of the same 20 seeded
  stop sets per space, captured headless at device pixel ratio 1 with an sRGB colour
  profile. Away from the classed columns (hue-arc coin tosses, colours Chromium clips
  where CSS maps) every set is within 2 levels. The control interpolates every set in
  sRGB while Chromium keeps each space: the other three spaces' sets must fail.
- Scripts/colour-check.py: 10,000 seeded colours in every CSS Color 4 form, read by the
  engine, against colour-science's conversions and CSS Color 4's gamut mapping written
  on top of them, within 0.5 levels after 16-bit rounding.
"""

import os
import re
import subprocess
import sys
import unittest

BINARY = os.environ.get("FLUIDGRADIENT_BIN", ".build/release/fluidgradient")
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts")


def run(script, *arguments):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, script), BINARY, *arguments],
                          capture_output=True, text=True, timeout=900)


def within(output):
    """The 'N of M sets within' line's N and M."""
    found = re.search(r"(\d+) of (\d+) sets within", output)
    return (int(found.group(1)), int(found.group(2))) if found else (None, None)


class CSSGradientTests(unittest.TestCase):
    def test_every_space_matches_chromium(self):
        result = run("css-gradients.py", "20", "37")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(within(result.stdout), (80, 80), result.stdout)

    def test_the_control_mixing_in_srgb_fails(self):
        result = run("css-gradients.py", "20", "37", "--control")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        passed, total = within(result.stdout)
        # Only the srgb sets pass (measured: exactly those 20; BENCHMARKS.md, issue 37).
        self.assertEqual(total, 80)
        self.assertLessEqual(passed, 20, result.stdout)


@unittest.skipUnless(subprocess.run([sys.executable, "-c", "import colour"], capture_output=True).returncode == 0,
                     "colour-science is not installed in this venv")
class ConversionTests(unittest.TestCase):
    def test_conversions_and_gamut_mapping_match_colour_science(self):
        result = run("colour-check.py", "10000", "37")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
