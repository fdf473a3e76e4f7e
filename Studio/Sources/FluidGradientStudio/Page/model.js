// The preset as the studio holds it: defaults, colours, the equivalent command line and the
// shareable fragment. Pure functions over plain preset objects (DESIGN section 8); no DOM
// except the colour-name resolver.
"use strict";
window.FG = window.FG || {};

FG.model = (() => {
  // What a preset file means when it leaves a key out (the engine's Preset(colors:) values).
  const DEFAULTS = {
    background: "#000000", speed: 1, blur: 0.75, seed: 0,
    blobSize: { min: 0.15, max: 0.75 }, blobAspect: { min: 0.25, max: 1.75 },
    opacity: { min: 0.5, max: 1 }, retargetInterval: { min: 0.8, max: 1.2 },
    edges: "bleed", colorSpace: "srgb", mixing: "srgb", size: "1920x1080", fps: 60, duration: 10, loop: false,
    pointScale: 1,
  };
  // The file's key order, as `presets show --json` writes it.
  const KEYS = ["name", "description", "colors", "highlights", "background", "speed", "blur", "seed",
    "blobSize", "blobAspect", "opacity", "retargetInterval", "edges", "colorSpace", "mixing", "size", "fps",
    "duration", "loop", "pointScale", "blobs", "highlightBlobs", "grain"];
  const RANGE_FLAGS = { blobSize: "blob-size", blobAspect: "blob-aspect", opacity: "opacity",
    retargetInterval: "retarget-interval" };

  const clone = (value) => JSON.parse(JSON.stringify(value));

  /** Every key the controls show, filled from DEFAULTS where `preset` leaves it out. */
  function complete(preset) {
    const full = Object.assign(clone(DEFAULTS), clone(preset));
    full.name = full.name || "studio";
    full.description = full.description || "";
    full.highlights = full.highlights || [];
    if (!full.colors && !full.blobs) full.colors = ["#FF2D55", "#5E5CE6"];
    if (typeof full.background === "object" && full.background) full.background = evenStops(full.background);
    return ordered(full);
  }

  /** A gradient whose stops all have a location: evenly spaced when none had one. */
  function evenStops(gradient) {
    const stops = gradient.stops || [];
    const missing = stops.some((stop) => stop.location === undefined);
    return Object.assign({}, gradient, {
      angle: gradient.angle === undefined ? 0 : gradient.angle,
      stops: stops.map((stop, index) => ({
        location: missing ? (stops.length > 1 ? index / (stops.length - 1) : 0) : stop.location,
        color: stop.color,
      })),
    });
  }

  /** The same keys in the file's order (unknown keys last, for the library to name). */
  function ordered(preset) {
    const out = {};
    for (const key of KEYS) if (preset[key] !== undefined) out[key] = preset[key];
    for (const key of Object.keys(preset)) if (!(key in out)) out[key] = preset[key];
    return out;
  }

  // ---- colours ------------------------------------------------------------------------------

  let probe = null;
  /** [r, g, b, a] in 0...255 for a hex colour or a CSS name; null when it is neither. */
  function rgba(text) {
    if (typeof text !== "string") return null;
    const hex = text.trim().replace(/^#/, "");
    if (/^#/.test(text.trim()) && /^([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) {
      const full = hex.length === 3 ? hex.replace(/./g, "$&$&") : hex;
      const value = (i) => parseInt(full.slice(i, i + 2), 16);
      return [value(0), value(2), value(4), full.length === 8 ? value(6) : 255];
    }
    if (!/^[a-z]+$/i.test(text.trim())) return null;
    probe = probe || document.createElement("canvas").getContext("2d");
    probe.fillStyle = "#010203";
    probe.fillStyle = text.trim();
    const resolved = probe.fillStyle;
    if (resolved === "#010203" && text.trim().toLowerCase() !== "#010203") return null;
    if (resolved.startsWith("#")) return rgba(resolved);
    const parts = resolved.match(/[\d.]+/g).map(Number);
    return [parts[0], parts[1], parts[2], Math.round((parts[3] ?? 1) * 255)];
  }

  const byte = (value) => Math.round(value).toString(16).padStart(2, "0").toUpperCase();
  /** `#RRGGBB`, or `#RRGGBBAA` when not opaque. */
  function hex(color) {
    const [r, g, b, a] = color;
    return "#" + byte(r) + byte(g) + byte(b) + (a === 255 ? "" : byte(a));
  }
  /** `#RRGGBB` for an `<input type=color>` (which has no alpha); black for a bad colour. */
  function pickerValue(text) { const c = rgba(text); return c ? hex([c[0], c[1], c[2], 255]) : "#000000"; }
  /** A picked `#rrggbb` with the alpha of `previous` kept. */
  function withPicked(picked, previous) {
    const c = rgba(picked);
    const old = rgba(previous);
    return hex([c[0], c[1], c[2], old ? old[3] : 255]);
  }
  /** The colour a fraction `t` of the way from `a` to `b` (hex). */
  function mix(a, b, t) {
    const x = rgba(a) || [0, 0, 0, 255], y = rgba(b) || [0, 0, 0, 255];
    return hex(x.map((v, i) => v + (y[i] - v) * t));
  }
  /** A CSS colour for a preset colour; transparent when it does not parse. */
  function css(text) { const c = rgba(text); return c ? `rgba(${c[0]},${c[1]},${c[2]},${c[3] / 255})` : "transparent"; }

  /** A CSS background showing `fill` (a colour or gradient object), for swatches and bars. */
  function fillCSS(fill) {
    if (typeof fill !== "object" || !fill) return css(fill);
    const stops = (fill.stops || []).map((s) => `${css(s.color)} ${clamp01(s.location) * 100}%`).join(", ");
    const angle = Number(fill.angle) || 0;
    if (fill.type === "radial") return `radial-gradient(circle, ${stops})`;
    if (fill.type === "conic") return `conic-gradient(from ${90 - angle}deg, ${stops})`;
    return `linear-gradient(${90 - angle}deg, ${stops})`; // anticlockwise from east → CSS bearing
  }
  const clamp01 = (v) => Math.min(1, Math.max(0, Number(v) || 0));

  // ---- the equivalent command line ------------------------------------------------------------

  /** `value` as one shell word. */
  function shellWord(value) {
    const text = String(value);
    return /^[A-Za-z0-9._\/:=+@%-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
  }

  /** The `--background` value of a fill: a colour, or `TYPE ANGLE COLOR LOC, COLOR LOC, ...`. */
  function fillFlag(fill) {
    if (typeof fill !== "object" || !fill) return String(fill);
    const stops = fill.stops.map((s) => `${s.color} ${s.location}`).join(", ");
    return `${fill.type} ${fill.angle ?? 0} ${stops}`;
  }

  const rangeFlag = (r) => `${r.min}...${r.max}` + (r.step !== undefined ? `/${r.step}` : "");

  /**
   * The `fluidgradient render` command that gives the same frame as the preset file: every key
   * as a flag, so the built-in default preset under the flags does not show through. Explicit
   * blobs have no flag, so a preset with them is rendered from its file.
   */
  function command(preset, output = "out.png") {
    const p = complete(preset);
    if (p.blobs || p.highlightBlobs) {
      return `fluidgradient render --preset ${shellWord(p.name + ".json")} -o ${shellWord(output)}`;
    }
    const words = ["fluidgradient", "render",
      "--colors", p.colors.join(","), "--highlights", p.highlights.join(","),
      "--background", fillFlag(p.background), "--size", p.size, "--fps", p.fps,
      "--duration", p.duration, "--seed", p.seed, "--speed", p.speed, "--blur", p.blur,
      p.loop ? "--loop" : "--no-loop", "--edges", p.edges, "--color-space", p.colorSpace, "--mixing", p.mixing,
      "--point-scale", p.pointScale];
    for (const [key, flag] of Object.entries(RANGE_FLAGS)) words.push("--" + flag, rangeFlag(p[key]));
    const grain = Object.assign({ amount: 0, size: 1, animated: false, mono: true }, p.grain || {});
    words.push("--grain", grain.amount);
    if (grain.amount > 0) {
      words.push("--grain-size", grain.size, grain.animated ? "--grain-animated" : "--no-grain-animated",
        grain.mono ? "--grain-mono" : "--no-grain-mono");
    }
    words.push("-o", output);
    return words.map(shellWord).join(" ");
  }

  // ---- the shareable fragment ----------------------------------------------------------------

  /** `preset=` and the preset's JSON as base64url UTF-8. */
  function fragment(preset) {
    const bytes = new TextEncoder().encode(JSON.stringify(preset));
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return "preset=" + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /** The preset object a fragment holds, null when it holds none; throws for a damaged one. */
  function fromFragment(hash) {
    const match = /(?:^#?|&)preset=([A-Za-z0-9_-]+)/.exec(hash || "");
    if (!match) return null;
    const base64 = match[1].replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  }

  /** `WxH` as [W, H], or null. */
  function parseSize(text) {
    const m = /^\s*(\d+)\s*[xX]\s*(\d+)\s*$/.exec(String(text));
    return m ? [Number(m[1]), Number(m[2])] : null;
  }

  return { DEFAULTS, KEYS, complete, ordered, clone, rgba, hex, pickerValue, withPicked, mix, css, fillCSS,
    clamp01, command, fillFlag, shellWord, fragment, fromFragment, parseSize };
})();
