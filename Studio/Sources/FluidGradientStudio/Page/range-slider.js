// A two-thumb range slider (the seed's range slider): a min and a max on one track, each
// thumb clamped to the track and to the other thumb, values snapped to a step and shown
// formatted. Mouse or touch drags a thumb (a press on the track takes the nearer one); the
// keyboard moves the focused thumb. Typed values in the two fields go to the preset as typed,
// so the library's validation, not this control, judges them.
"use strict";
window.FG = window.FG || {};

FG.RangeSlider = class {
  /**
   * @param {object} options `key` (the preset key, e.g. "blobSize"), `label`, `bounds` [lo, hi]
   *   of the track, `step`, `format(value)` for shown values, `onChange(range, event)`.
   */
  constructor(options) {
    Object.assign(this, options);
    this.decimals = Math.max(0, -Math.floor(Math.log10(this.step) + 1e-9));
    this.value = { min: this.bounds[0], max: this.bounds[1] };
    this.element = this.build();
  }

  build() {
    const root = FG.dom.el("div", { class: "field range-field" });
    const head = FG.dom.el("div", { class: "field-head" }, [
      FG.dom.el("span", { class: "label", id: `${this.key}-label` }, this.label),
      (this.readout = FG.dom.el("span", { class: "readout" })),
    ]);
    this.track = FG.dom.el("div", { class: "range-track", "data-range": this.key });
    this.fill = FG.dom.el("div", { class: "range-fill" });
    this.track.append(this.fill);
    this.thumbs = {};
    this.inputs = {};
    for (const part of ["min", "max"]) {
      const name = `${this.label} ${part === "min" ? "minimum" : "maximum"}`;
      const thumb = FG.dom.el("div", { class: "thumb", role: "slider", tabindex: "0", "aria-label": name,
        "data-thumb": part, "aria-orientation": "horizontal" });
      thumb.addEventListener("keydown", (event) => this.keyDown(part, event));
      this.track.append(thumb);
      this.thumbs[part] = thumb;
      const input = FG.dom.el("input", { class: "num", type: "text", inputmode: "decimal", "aria-label": name,
        "data-input": `${this.key}.${part}`, spellcheck: "false" });
      input.addEventListener("change", (event) => this.typed(part, input.value, event));
      this.inputs[part] = input;
    }
    this.track.addEventListener("pointerdown", (event) => this.press(event));
    const body = FG.dom.el("div", { class: "range-body" }, [this.inputs.min, this.track, this.inputs.max]);
    root.append(head, body, FG.dom.el("div", { class: "error", "data-error-for": this.key, role: "alert" }));
    return root;
  }

  /** Shows `range` (a preset range object; its other keys such as `step` are kept). */
  set(range) {
    this.value = Object.assign({}, range);
    this.render();
  }

  /** The track's span: the bounds, widened to hold a value loaded from outside them. */
  span() {
    const finite = [this.value.min, this.value.max].filter((v) => typeof v === "number" && isFinite(v));
    return [Math.min(this.bounds[0], ...finite), Math.max(this.bounds[1], ...finite)];
  }

  render() {
    const [lo, hi] = this.span();
    const position = (v) => {
      if (typeof v !== "number" || !isFinite(v) || hi === lo) return 0;
      return (Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo);
    };
    const at = { min: position(this.value.min), max: position(this.value.max) };
    for (const part of ["min", "max"]) {
      const v = this.value[part];
      const thumb = this.thumbs[part];
      thumb.style.left = `calc(${at[part] * 100}% )`;
      thumb.setAttribute("aria-valuemin", String(part === "min" ? lo : this.numeric("min", lo)));
      thumb.setAttribute("aria-valuemax", String(part === "max" ? hi : this.numeric("max", hi)));
      thumb.setAttribute("aria-valuenow", String(this.numeric(part, lo)));
      thumb.setAttribute("aria-valuetext", typeof v === "number" ? this.format(v) : String(v));
      if (document.activeElement !== this.inputs[part]) this.inputs[part].value = String(v);
    }
    this.fill.style.left = `${at.min * 100}%`;
    this.fill.style.width = `${Math.max(0, at.max - at.min) * 100}%`;
    const show = (v) => (typeof v === "number" ? this.format(v) : String(v));
    this.readout.textContent = `${show(this.value.min)} – ${show(this.value.max)}`;
  }

  numeric(part, fallback) {
    const v = this.value[part];
    return typeof v === "number" && isFinite(v) ? v : fallback;
  }

  /** `v` on the step grid from the track's start, and inside what `part` may take. */
  clamp(part, v) {
    const [lo, hi] = this.span();
    const snapped = Number((Math.round((v - lo) / this.step) * this.step + lo).toFixed(this.decimals));
    const floor = part === "min" ? lo : this.numeric("min", lo);
    const ceiling = part === "max" ? hi : this.numeric("max", hi);
    return Math.min(ceiling, Math.max(floor, snapped));
  }

  move(part, v, event) {
    const next = this.clamp(part, v);
    if (next === this.value[part]) return;
    this.value = Object.assign({}, this.value, { [part]: next });
    this.render();
    this.onChange(Object.assign({}, this.value), event);
  }

  /** A press on the track: the nearer thumb (the one in the press's direction when they meet) follows the pointer. */
  press(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    const value = this.valueAt(event.clientX);
    const [lo] = this.span();
    const min = this.numeric("min", lo), max = this.numeric("max", lo);
    let part = event.target.dataset.thumb;
    if (!part) part = Math.abs(value - min) < Math.abs(value - max) || (min === max && value < min) ? "min" : "max";
    this.thumbs[part].focus();
    this.track.setPointerCapture(event.pointerId);
    this.dragging = part;
    this.move(part, value, event);
    const moved = (e) => this.move(part, this.valueAt(e.clientX), e);
    const up = () => {
      this.track.removeEventListener("pointermove", moved);
      this.track.removeEventListener("pointerup", up);
      this.track.removeEventListener("pointercancel", up);
      this.dragging = null;
    };
    this.track.addEventListener("pointermove", moved);
    this.track.addEventListener("pointerup", up);
    this.track.addEventListener("pointercancel", up);
  }

  valueAt(clientX) {
    const rect = this.track.getBoundingClientRect();
    const [lo, hi] = this.span();
    const fraction = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
    return lo + fraction * (hi - lo);
  }

  /** Arrows move a step, Page Up/Down ten, Home/End to the end of what the thumb may take. */
  keyDown(part, event) {
    const [lo, hi] = this.span();
    const v = this.numeric(part, lo);
    const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
    if (event.key in steps) this.move(part, v + steps[event.key] * this.step, event);
    else if (event.key === "Home") this.move(part, part === "min" ? lo : this.numeric("min", lo), event);
    else if (event.key === "End") this.move(part, part === "max" ? hi : this.numeric("max", hi), event);
    else return;
    event.preventDefault();
  }

  /** A typed value: a number when it reads as one, else the text itself, for the library to name. */
  typed(part, text, event) {
    const trimmed = text.trim();
    const number = Number(trimmed);
    const v = trimmed !== "" && isFinite(number) ? number : trimmed;
    this.value = Object.assign({}, this.value, { [part]: v });
    this.render();
    this.onChange(Object.assign({}, this.value), event);
  }
};
