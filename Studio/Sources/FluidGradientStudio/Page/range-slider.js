// A two-thumb range slider (the seed's range slider): a min and a max on one track, each
// thumb clamped to the track and to the other thumb, values snapped to a step and shown
// formatted. A thumb follows a drag from where it was grabbed (Shift moves it a tenth as
// far, for fine changes); a press on the track takes the nearer thumb there; the keyboard
// moves the focused thumb. Typed values go to the preset as typed, so the library's
// validation judges them, except a number past the slider's ends, which the page refuses in
// the slider's words.
"use strict";
window.FG = window.FG || {};

FG.RangeSlider = class {
  /**
   * @param {object} options `key` (the preset key, e.g. "blobSize"), `label`, `parts` (the words
   *   for min and max, e.g. ["smallest", "largest"]), `bounds` [lo, hi] of the track, `step`,
   *   `format(value)` for shown values, `help` (its help line element), `onChange(range, event)`.
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
      (this.readout = FG.dom.el("span", { class: "readout", "aria-hidden": "true" })),
    ]);
    this.track = FG.dom.el("div", { class: "range-track", "data-range": this.key });
    this.fill = FG.dom.el("div", { class: "range-fill" });
    this.track.append(this.fill);
    this.thumbs = {};
    this.inputs = {};
    const describedBy = `help-${this.key} error-${this.key}`;
    const fields = [];
    for (const part of ["min", "max"]) {
      const word = (this.parts || ["minimum", "maximum"])[part === "min" ? 0 : 1];
      const name = `${this.label}, ${word}`;
      const thumb = FG.dom.el("div", { class: "thumb", role: "slider", tabindex: "0", "aria-label": name,
        "data-thumb": part, "aria-orientation": "horizontal", "aria-describedby": describedBy });
      thumb.addEventListener("keydown", (event) => this.keyDown(part, event));
      this.track.append(thumb);
      this.thumbs[part] = thumb;
      const id = `field-${this.key}-${part}`;
      const input = FG.dom.el("input", { class: "num", type: "text", inputmode: "decimal", id,
        "data-input": `${this.key}.${part}`, spellcheck: "false", autocomplete: "off", "aria-describedby": describedBy });
      input.addEventListener("change", (event) => this.typed(part, input.value, event));
      this.inputs[part] = input;
      fields.push(FG.dom.el("label", { class: "inline range-input", for: id }, [
        FG.dom.el("span", { class: "part" }, word[0].toUpperCase() + word.slice(1)), input]));
    }
    this.track.addEventListener("pointerdown", (event) => this.press(event));
    const body = FG.dom.el("div", { class: "range-body" }, [this.track]);
    const typedRow = FG.dom.el("div", { class: "range-typed" }, fields);
    root.append(head, body, typedRow, this.help || "",
      FG.dom.el("div", { class: "error", id: `error-${this.key}`, "data-error-for": this.key, role: "alert" }));
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

  /**
   * A press: on a thumb, the thumb follows the pointer from where it was grabbed; on the track,
   * the nearer thumb (the one in the press's direction when they meet) jumps there first.
   * With Shift held, the thumb moves a tenth of the pointer's way.
   */
  press(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    const pressed = this.valueAt(event.clientX);
    const [lo] = this.span();
    const min = this.numeric("min", lo), max = this.numeric("max", lo);
    let part = event.target.dataset.thumb;
    const onThumb = Boolean(part);
    if (!part) part = Math.abs(pressed - min) < Math.abs(pressed - max) || (min === max && pressed < min) ? "min" : "max";
    this.thumbs[part].focus();
    this.track.setPointerCapture(event.pointerId);
    this.dragging = part;
    if (!onThumb) this.move(part, pressed, event);
    let anchorX = event.clientX, anchorValue = this.numeric(part, lo);
    let fine = event.shiftKey;
    const moved = (e) => {
      if (e.shiftKey !== fine) { // re-anchor, so switching between coarse and fine never jumps
        fine = e.shiftKey;
        anchorX = e.clientX;
        anchorValue = this.numeric(part, lo);
        return;
      }
      const delta = (e.clientX - anchorX) * (this.spanWidth() / this.trackWidth()) * (fine ? 0.1 : 1);
      this.move(part, anchorValue + delta, e);
    };
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

  trackWidth() { return Math.max(1, this.track.getBoundingClientRect().width); }
  spanWidth() { const [lo, hi] = this.span(); return hi - lo; }

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
    const problem = FG.labels.sliderProblem(`${this.key}.${part}`, v, this.span());
    if (problem) return FG.problems.showLocal(`${this.key}.${part}`, problem, this.key);
    this.value = Object.assign({}, this.value, { [part]: v });
    this.render();
    this.onChange(Object.assign({}, this.value), event);
  }
};
