// Sizes and stills: the Export panel's size (the design's own, 1080p, 4K, a 1080x1920 story,
// a 1080x1080 square, or one typed), which stills and renders share, and a still of the design
// as PNG, WebP or AVIF at that size and a chosen instant, from the service's frame URL (the
// engine's frame, with the library's `keepingLook` at another size than the design's).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const sizeMenu = $("export-size"), customRow = $("custom-size-row"), customField = $("custom-size");
  const customError = $("custom-size-error"), stillNote = $("still-note"), timeField = $("still-time");
  const LIMIT = 3840 * 2160;

  /** The design's own size as [W, H]. */
  const own = () => FG.model.parseSize(studio.preset().size) || [1920, 1080];

  /** The chosen size as [W, H], or null with the reason shown beside the typed size. */
  function chosenSize() {
    customError.textContent = "";
    customError.classList.remove("shown");
    customField.removeAttribute("aria-invalid");
    if (sizeMenu.value === "own") return own();
    if (sizeMenu.value !== "custom") return FG.model.parseSize(sizeMenu.value);
    const size = FG.model.parseSize(customField.value);
    let problem = null;
    if (!size) problem = "Other size: write WIDTHxHEIGHT in pixels, such as 1280x720.";
    else if (size[0] < 1 || size[1] < 1) problem = "Other size: each side needs at least 1 pixel.";
    else if (size[0] * size[1] > LIMIT) problem = "Other size: at most 3840 × 2160 pixels in all.";
    if (!problem) return size;
    customError.textContent = problem;
    customError.classList.add("shown");
    customField.setAttribute("aria-invalid", "true");
    return null;
  }

  /**
   * The design at `size`, looking as it does at its own size: the point scale multiplied by the
   * ratio of the shorter sides, as the library's `keepingLook` shows it (for a render job, which
   * renders a design at its own size).
   */
  function sizedPreset(size) {
    const preset = studio.preset();
    const [w, h] = own();
    if (size[0] === w && size[1] === h) return preset;
    const ratio = Math.min(size[0], size[1]) / Math.min(w, h);
    return Object.assign(preset, { size: `${size[0]}x${size[1]}`,
      pointScale: Number(((Number(preset.pointScale) || 1) * ratio).toPrecision(12)) });
  }

  const instant = () => {
    const t = Number(timeField.value);
    return isFinite(t) && t >= 0 ? t : null;
  };

  async function downloadStill() {
    const size = chosenSize();
    const t = instant();
    if (!size) return;
    if (t === null) return FG.dom.flash(stillNote, "At: give the time in seconds, 0 or more.");
    if (!studio.designId) return FG.dom.flash(stillNote, "Nothing to export yet.");
    const format = $("still-format").value;
    const [w, h] = size;
    stillNote.textContent = `Rendering ${w} × ${h}…`;
    const response = await FG.api.send("GET", `/v1/designs/${studio.designId}/frames/${w}x${h}/${t}.${format}`);
    if (!response.ok) {
      const problem = await FG.api.problemOf(response);
      stillNote.textContent = `Could not render the still: ${problem.detail || problem.title}`;
      return;
    }
    const name = `${studio.fileName()}-${t}s-${w}x${h}.${format}`;
    FG.dom.download(await response.blob(), name);
    FG.dom.flash(stillNote, `Downloaded ${name}.`);
  }

  sizeMenu.addEventListener("change", () => {
    customRow.hidden = sizeMenu.value !== "custom";
    chosenSize();
  });
  customField.addEventListener("change", chosenSize);
  $("still-now").addEventListener("click", () => {
    timeField.value = String(studio.preview.k / FG.Preview.FPS);
  });
  $("still-download").addEventListener("click", downloadStill);
  const ownOption = sizeMenu.querySelector('option[value="own"]');
  studio.onDesign(() => { ownOption.textContent = `The design's own (${own().join(" × ")})`; });

  Object.assign(window.studio, { exportSize: chosenSize, sizedPreset });
})();
