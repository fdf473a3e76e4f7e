// The words a designer reads: each preset key's label, unit and help line, the bounds its
// slider shows, and problems from the library reworded with the control's own label and
// units. Pure data and functions; no DOM.
"use strict";
window.FG = window.FG || {};

FG.labels = (() => {
  const trim = (digits) => (v) => Number(v).toFixed(digits).replace(/\.?0+$/, "") || "0";
  const percent = (v) => `${Math.round(Number(v) * 100)}%`;

  /**
   * Each key: `label`, `help`, and for a slider `bounds` [lo, hi] (what the slider shows; a
   * typed value outside them is refused by the page) and `format(value)` with the unit.
   */
  const KEYS = {
    name: { label: "Name", help: "Shown in the file names and in your saved designs; it changes no pixel." },
    description: { label: "Description", help: "A line for whoever uses the design next." },
    colors: { label: "Blob colours", item: "Blob colour",
      help: "Each colour is one soft blob; later blobs lie on top. Reorder with the arrows or by dragging ⠿." },
    highlights: { label: "Highlights", item: "Highlight",
      help: "Blobs laid over the others in overlay: they lighten light areas and deepen dark ones. Optional." },
    background: { label: "Background",
      help: "What shows where the blobs leave gaps. To see it alone, hide the blobs under Show, below the preview." },
    blobSize: { label: "Blob size", bounds: [0, 2], step: 0.01, format: (v) => `${trim(2)(v)}×`,
      parts: ["smallest", "largest"],
      help: "Each blob's radius as a share of the frame's width (1× reaches from the centre to the edge)." },
    blobAspect: { label: "Blob stretch", bounds: [0, 4], step: 0.05, format: trim(2), parts: ["least", "most"],
      help: "How tall a blob is for its width: 1 is round on a square frame; below 1 wide, above 1 tall." },
    opacity: { label: "Blob opacity", bounds: [0, 1], step: 0.01, format: percent, parts: ["least", "most"],
      help: "How solid each blob is at its centre." },
    retargetInterval: { label: "New direction every", bounds: [0.05, 5], step: 0.05,
      format: (v) => `${trim(2)(v)} s`, parts: ["shortest", "longest"],
      help: "How often each blob picks a new place, size and opacity to drift to, at speed 1×." },
    speed: { label: "Speed", bounds: [0, 3], step: 0.05, format: (v) => `${trim(2)(v)}×`,
      help: "How fast the blobs drift; 0 is a still picture." },
    blur: { label: "Blur", bounds: [0, 1], step: 0.01, format: trim(2),
      help: "How soft the blobs are: 0 keeps their edges, 1 melts them together. The blur grows with the frame." },
    seed: { label: "Random seed",
      help: "Picks where the blobs start and how they move: the same seed gives the same animation." },
    edges: { label: "At the frame's edges",
      help: "Whether the blur sees blobs beyond the frame, fades to the background, or repeats the edge." },
    mixing: { label: "Mixing",
      help: "Where colours meet and blur: sRGB as browsers blend, linear light as light adds, or OKLab, evenly." },
    colorSpace: { label: "Colour space",
      help: "sRGB for every screen; Display P3 for the wider colours of current phones and Apple screens." },
    pointScale: { label: "Pixel density", format: (v) => `${v}×`,
      help: "Pixels per point, as a screen's scale: 2 renders the blur as a Retina screen shows it. 1 for most." },
    size: { label: "Size", help: "Width × height in pixels, such as 1920x1080. Export can render other sizes." },
    fps: { label: "Frame rate", help: "Frames per second of the video." },
    duration: { label: "Length", help: "Seconds of animation." },
    loop: { label: "Seamless loop", help: "The motion repeats over the length, so the video loops without a seam." },
    grain: { label: "Grain" },
  };

  const EDGE_CHOICES = [["bleed", "Continue past the frame"], ["transparent", "Fade to the background"],
    ["clamp", "Repeat the edge pixels"]];
  const MIXING_CHOICES = [["srgb", "sRGB"], ["linear", "Linear light"], ["oklab", "OKLab"]];
  const COLOR_SPACE_CHOICES = [["srgb", "sRGB"], ["display-p3", "Display P3"]];

  /**
   * The convention of a gradient's angle in words, and the CSS angle that draws the same direction.
   * @param {number} angle degrees anticlockwise from east.
   */
  function angleHint(angle) {
    const numeric = typeof angle === "number" && isFinite(angle);
    const css = numeric ? (((90 - angle) % 360) + 360) % 360 : null;
    return "Degrees anticlockwise from east: 0° runs left to right, 90° bottom to top, 270° top to bottom."
      + (numeric ? ` In CSS this is linear-gradient(${trim(1)(css)}deg, …).` : "");
  }

  /** The CSS angle (clockwise from north) as this page's angle (anticlockwise from east). */
  const fromCSSAngle = (css) => (((90 - css) % 360) + 360) % 360;

  /** A key path (`blobSize.min`, `colors[2]`, `background.stops[1].color`) as the controls label it. */
  function pathLabel(path) {
    if (!path) return "";
    const parts = [];
    const re = /([A-Za-z]+)|\[(\d+)\]/g;
    let m;
    while ((m = re.exec(path))) parts.push(m[1] !== undefined ? m[1] : Number(m[2]));
    const [key, ...rest] = parts;
    const spec = KEYS[key];
    if (!spec) return path;
    if ((key === "colors" || key === "highlights") && typeof rest[0] === "number") {
      return `${spec.item} ${rest[0] + 1}`;
    }
    if (spec.parts && (rest[0] === "min" || rest[0] === "max")) {
      return `${spec.label}, ${spec.parts[rest[0] === "min" ? 0 : 1]}`;
    }
    if (key === "background") {
      if (rest[0] === "angle") return "Background direction";
      if (rest[0] === "stops" && typeof rest[1] === "number") {
        const what = rest[2] === "location" ? " position" : rest[2] === "color" ? " colour" : "";
        return `Background stop ${rest[1] + 1}${what}`;
      }
      if (rest[0] === "stops") return "Background stops";
    }
    if (key === "grain" && rest[0]) return `Grain ${rest[0]}`;
    return spec.label;
  }

  /** A value as the control for `path` shows it (with its unit), or as written. */
  function shown(path, value) {
    const key = String(path).replace(/[.[].*$/, "");
    const spec = KEYS[key];
    const number = Number(value);
    if (!spec || !spec.format || value === "" || !isFinite(number)) return String(value);
    return spec.format(number);
  }

  /**
   * A problem from the library (`keyPath`, `reason`) in the page's words: the control's label,
   * and a range's bounds in the control's units.
   */
  function reword(path, reason) {
    const label = pathLabel(path);
    let text = String(reason || "");
    const outside = /^(.*) is outside the allowed range (-?[\d.e+]+)\.\.\.(-?[\d.e+]+)$/.exec(text);
    if (outside) {
      text = `${shown(path, outside[1])} is outside ${shown(path, outside[2])} to ${shown(path, outside[3])}`;
    }
    const above = /^min (\S+) is greater than max (\S+)$/.exec(text);
    if (above) {
      const spec = KEYS[path] || {};
      const [low, high] = spec.parts || ["min", "max"];
      text = `the ${low} (${shown(path, above[1])}) is more than the ${high} (${shown(path, above[2])})`;
    }
    return label ? `${label}: ${text}` : text;
  }

  /**
   * The page's own check of a typed slider value: null when it is inside what the slider
   * shows (`span`, the bounds widened to hold a loaded value), else the problem's words.
   */
  function sliderProblem(path, value, span) {
    if (typeof value !== "number" || !isFinite(value)) return null;
    const [lo, hi] = span;
    if (value >= lo && value <= hi) return null;
    const where = value < lo ? `less than ${shown(path, lo)}, the slider's start`
      : `more than ${shown(path, hi)}, the slider's end`;
    return `${pathLabel(path)}: ${shown(path, value)} is ${where}`;
  }

  return { KEYS, EDGE_CHOICES, MIXING_CHOICES, COLOR_SPACE_CHOICES, angleHint, fromCSSAngle, pathLabel, shown,
    reword, sliderProblem, trim, percent };
})();
