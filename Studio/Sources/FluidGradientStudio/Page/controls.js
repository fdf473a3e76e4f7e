// The sidebar: one control per preset key, built into sections. Each control shows a value
// with `set(value)` and reports an edit with `edit(key, value, event)`. Fields take what is
// typed as typed (a number when it reads as one), so the library's validation judges it.
"use strict";
window.FG = window.FG || {};

FG.controls = (() => {
  const { el, button } = FG.dom;
  const errorSlot = (key) => el("div", { class: "error", "data-error-for": key, role: "alert" });
  const typedValue = (text) => {
    const trimmed = text.trim();
    const number = Number(trimmed);
    return trimmed !== "" && isFinite(number) ? number : trimmed;
  };
  const shown = (value) => (value === undefined || value === null ? "" : String(value));

  /** A labelled text field for one key. */
  function textField(key, label, edit, options = {}) {
    const id = `field-${key}`;
    const input = el("input", { type: "text", id, class: options.wide ? "text" : "num", inputmode: options.mode,
      "data-input": key, spellcheck: "false", autocomplete: "off", list: options.list });
    input.addEventListener("change", (e) => edit(key, options.raw ? input.value.trim() : typedValue(input.value), e));
    const extra = options.after ? [options.after] : [];
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, label), el("div", { class: "row-input" }, [input, ...extra]),
      errorSlot(key)]);
    return { key, element, set(value) { if (document.activeElement !== input) input.value = shown(value); } };
  }

  /** A native slider with its value beside it, as a text field that also takes typing. */
  function slider(key, label, range, edit, format) {
    const id = `field-${key}`;
    const input = el("input", { type: "range", id, min: range[0], max: range[1], step: range[2], "data-slider": key });
    const field = el("input", { type: "text", class: "num", inputmode: "decimal", "data-input": key,
      "aria-label": `${label} value`, spellcheck: "false" });
    const readout = el("span", { class: "readout" });
    input.addEventListener("input", (e) => {
      field.value = input.value;
      readout.textContent = format(Number(input.value));
      input.setAttribute("aria-valuetext", format(Number(input.value)));
      edit(key, Number(input.value), e);
    });
    field.addEventListener("change", (e) => edit(key, typedValue(field.value), e));
    const element = el("div", { class: "field slider-field" }, [
      el("div", { class: "field-head" }, [el("label", { class: "label", for: id }, label), readout]),
      el("div", { class: "slider-body" }, [input, field]), errorSlot(key)]);
    return { key, element, set(value) {
      if (typeof value === "number") {
        input.value = String(value);
        input.setAttribute("aria-valuetext", format(value));
      }
      readout.textContent = typeof value === "number" ? format(value) : String(value);
      if (document.activeElement !== field) field.value = shown(value);
    } };
  }

  function select(key, label, choices, edit) {
    const id = `field-${key}`;
    const options = choices.map(([value, text]) => el("option", { value }, text));
    const input = el("select", { id, "data-input": key }, options);
    input.addEventListener("change", (e) => edit(key, input.value, e));
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, label), el("div", { class: "row-input" }, [input]), errorSlot(key)]);
    return { key, element, set(value) { input.value = value; } };
  }

  function checkbox(key, label, edit) {
    const id = `field-${key}`;
    const input = el("input", { type: "checkbox", id, "data-input": key });
    input.addEventListener("change", (e) => edit(key, input.checked, e));
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, label), el("div", { class: "row-input" }, [input]), errorSlot(key)]);
    return { key, element, set(value) { input.checked = value === true; } };
  }

  function range(key, label, bounds, step, format, edit) {
    const slider = new FG.RangeSlider({ key, label, bounds, step, format, onChange: (v, e) => edit(key, v, e) });
    return { key, element: slider.element, set: (v) => slider.set(v), slider };
  }

  const fixed = (digits) => (v) => v.toFixed(digits).replace(/\.?0+$/, "") || "0";
  const percent = (v) => `${Math.round(v * 100)}%`;

  /** The seed, with a shuffle button that draws a new one. */
  function seed(edit) {
    const shuffle = button("Shuffle the seed", "⟳ Shuffle", (e) => {
      const word = new Uint32Array(1);
      crypto.getRandomValues(word);
      edit("seed", word[0], e);
    }, { class: "ghost small", "data-shuffle": "seed" });
    return textField("seed", "Seed", edit, { mode: "numeric", after: shuffle });
  }

  /**
   * Builds every control into `container`.
   * @param {HTMLElement} container the sidebar.
   * @param {function} edit `edit(key, value, event)`.
   * @param {object} extra elements to place in sections: `palette` (the palette button row).
   * @returns {object[]} the controls, each `{key, element, set}`.
   */
  function build(container, edit, extra) {
    const list = (key, label, noun, min) => {
      const control = new FG.ColorList({ key, label, noun, min, max: 64, onChange: (v, e) => edit(key, v, e) });
      return { key, element: control.element, set: (v) => control.set(v || []), list: control };
    };
    const builder = new FG.GradientBuilder({ key: "background", onChange: (v, e) => edit("background", v, e) });
    const sections = [
      ["Colours", [list("colors", "Blob colours", "Colour", 1), list("highlights", "Highlights", "Highlight", 0)],
        extra.palette],
      ["Background", [{ key: "background", element: builder.element, set: (v) => builder.set(v), builder }]],
      ["Blobs", [
        range("blobSize", "Size", [0, 2], 0.01, fixed(2), edit),
        range("blobAspect", "Aspect", [0, 4], 0.05, fixed(2), edit),
        range("opacity", "Opacity", [0, 1], 0.01, percent, edit),
        range("retargetInterval", "Retarget interval", [0.05, 5], 0.05, (v) => `${fixed(2)(v)} s`, edit)]],
      ["Motion and look", [
        slider("speed", "Speed", [0, 3, 0.05], edit, (v) => `${fixed(2)(v)}×`),
        slider("blur", "Blur", [0, 1, 0.01], edit, fixed(2)),
        seed(edit),
        select("edges", "Edges", [["bleed", "Bleed"], ["transparent", "Transparent"], ["clamp", "Clamp"]], edit),
        select("mixing", "Mixing", [["srgb", "sRGB"], ["linear", "Linear light"], ["oklab", "OKLab"]], edit),
        select("colorSpace", "Colour space", [["srgb", "sRGB"], ["display-p3", "Display P3"]], edit),
        textField("pointScale", "Point scale", edit, { mode: "decimal" })]],
      ["Output", [
        textField("size", "Size", edit, { raw: true, wide: true, list: "sizes" }),
        textField("fps", "Frames per second", edit, { mode: "decimal" }),
        textField("duration", "Duration (s)", edit, { mode: "decimal" }),
        checkbox("loop", "Seamless loop", edit)]],
    ];
    const controls = [];
    for (const [title, items, after] of sections) {
      const section = el("section", { class: "panel", "aria-label": title }, [el("h2", {}, title)]);
      for (const item of items) {
        section.append(item.element);
        controls.push(item);
      }
      if (after) section.append(after);
      container.append(section);
    }
    return controls;
  }

  return { build };
})();
