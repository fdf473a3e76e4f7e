// The grain control: the preset's `grain` object (DESIGN section 12) as an amount slider, the
// cell size in points, and two switches. Every edit sends the whole object; an amount of 0 is
// no grain. The preview shows the engine's own frames, grain included.
"use strict";
window.FG = window.FG || {};

FG.GrainControl = class {
  static OFF = { amount: 0, size: 1, animated: false, mono: true };

  /** @param {function} onChange `onChange(grain, event)` with the whole new object. */
  constructor(onChange) {
    const { el } = FG.dom;
    this.value = Object.assign({}, FG.GrainControl.OFF);
    const change = (key, value, event) => {
      this.value = Object.assign({}, this.value, { [key]: value });
      this.set(this.value);
      onChange(Object.assign({}, this.value), event);
    };
    const typed = (text) => (text.trim() !== "" && isFinite(Number(text)) ? Number(text) : text.trim());
    this.amount = el("input", { type: "range", id: "field-grain", min: 0, max: 0.3, step: 0.005,
      "data-slider": "grain.amount", "aria-valuetext": "none" });
    this.amountText = el("input", { type: "text", class: "num", inputmode: "decimal", "data-input": "grain.amount",
      "aria-label": "Grain amount value", spellcheck: "false" });
    this.readout = el("span", { class: "readout" });
    this.size = el("input", { type: "text", id: "field-grain-size", class: "num", inputmode: "decimal",
      "data-input": "grain.size", spellcheck: "false" });
    this.animated = el("input", { type: "checkbox", id: "field-grain-animated", "data-input": "grain.animated" });
    this.mono = el("input", { type: "checkbox", id: "field-grain-mono", "data-input": "grain.mono" });
    this.amount.addEventListener("input", (e) => change("amount", Number(this.amount.value), e));
    this.amountText.addEventListener("change", (e) => change("amount", typed(this.amountText.value), e));
    this.size.addEventListener("change", (e) => change("size", typed(this.size.value), e));
    this.animated.addEventListener("change", (e) => change("animated", this.animated.checked, e));
    this.mono.addEventListener("change", (e) => change("mono", this.mono.checked, e));
    // A help line under each part, read out with it (aria-describedby), as every other control has.
    const help = (id, text, ...inputs) => {
      for (const input of inputs) input.setAttribute("aria-describedby", id);
      return el("p", { class: "help", id }, text);
    };
    const row = (label, id, input, text) => el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, label), el("div", { class: "row-input" }, [input]),
      help(`help-${id}`, text, input)]);
    this.element = el("div", { class: "grain-control" }, [
      el("div", { class: "field slider-field" }, [
        el("div", { class: "field-head" }, [el("label", { class: "label", for: "field-grain" }, "Amount"),
          this.readout]),
        el("div", { class: "slider-body" }, [this.amount, this.amountText]),
        help("help-field-grain", "How strongly the film grain shows over the gradient; 0 is none.", this.amount,
          this.amountText)]),
      row("Cell size (points)", "field-grain-size", this.size, "The side of one grain cell, in points."),
      row("Animated", "field-grain-animated", this.animated, "The grain changes every frame, as film does."),
      row("Grey (mono)", "field-grain-mono", this.mono, "One grey value per cell, rather than one per colour."),
      el("div", { class: "error", "data-error-for": "grain", role: "alert" })]);
    this.set(undefined);
  }

  /** Shows `grain` (a preset's object, or undefined for none). */
  set(grain) {
    this.value = Object.assign({}, FG.GrainControl.OFF, grain || {});
    const amount = this.value.amount;
    const text = typeof amount === "number" ? (amount > 0 ? `${+(amount * 100).toFixed(1)}%` : "none") : String(amount);
    if (typeof amount === "number") this.amount.value = String(amount);
    this.amount.setAttribute("aria-valuetext", text);
    this.readout.textContent = text;
    if (document.activeElement !== this.amountText) this.amountText.value = String(amount);
    if (document.activeElement !== this.size) this.size.value = String(this.value.size);
    this.animated.checked = this.value.animated === true;
    this.mono.checked = this.value.mono !== false;
  }
};
