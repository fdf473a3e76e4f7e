// The Design panel: one control per preset key, built into sections, each with its label,
// unit and help line (labels.js). Each control shows a value with `set(value)` and reports an
// edit with `edit(key, value, event)`. Fields take what is typed as typed (a number when it
// reads as one), so the library's validation judges it; a slider's field also refuses a value
// past the slider's ends, in the slider's words.
"use strict";
window.FG = window.FG || {};

FG.controls = (() => {
  const { el, button } = FG.dom;
  const L = FG.labels;
  const errorSlot = (key) => el("div", { class: "error", id: `error-${key}`, "data-error-for": key, role: "alert" });
  const helpLine = (key) => el("p", { class: "help", id: `help-${key}` }, L.KEYS[key]?.help || "");
  const describedBy = (key) => `help-${key} error-${key}`;
  const typedValue = (text) => {
    const trimmed = text.trim();
    const number = Number(trimmed);
    return trimmed !== "" && isFinite(number) ? number : trimmed;
  };
  const shown = (value) => (value === undefined || value === null ? "" : String(value));

  /** A labelled text field for one key, with its unit after it. */
  function textField(key, edit, options = {}) {
    const id = `field-${key}`;
    const input = el("input", { type: "text", id, class: options.wide ? "text" : "num", inputmode: options.mode,
      "data-input": key, spellcheck: "false", autocomplete: "off", list: options.list,
      "aria-describedby": describedBy(key) });
    input.addEventListener("change", (e) => edit(key, options.raw ? input.value.trim() : typedValue(input.value), e));
    const extra = [options.unit ? el("span", { class: "unit" }, options.unit) : null, options.after].filter(Boolean);
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, L.KEYS[key].label), el("div", { class: "row-input" }, [input, ...extra]),
      helpLine(key), errorSlot(key)]);
    return { key, element, input, set(value) { if (document.activeElement !== input) input.value = shown(value); } };
  }

  /**
   * A native slider with its value beside it as a text field that also takes typing. A typed
   * value moves the slider and its readout too, so the next arrow key steps from it.
   */
  function slider(key, edit) {
    const spec = L.KEYS[key];
    const id = `field-${key}`;
    const [lo, hi] = spec.bounds;
    const input = el("input", { type: "range", id, min: lo, max: hi, step: spec.step, "data-slider": key,
      "aria-describedby": describedBy(key) });
    const field = el("input", { type: "text", class: "num", inputmode: "decimal", "data-input": key,
      "aria-label": `${spec.label}, typed`, spellcheck: "false", autocomplete: "off",
      "aria-describedby": describedBy(key) });
    const readout = el("span", { class: "readout", "aria-hidden": "true" });
    const show = (value) => {
      if (typeof value === "number" && isFinite(value)) {
        input.value = String(value);
        input.setAttribute("aria-valuetext", spec.format(value));
      }
      readout.textContent = typeof value === "number" ? spec.format(value) : String(value);
    };
    input.addEventListener("input", (e) => {
      field.value = input.value;
      show(Number(input.value));
      edit(key, Number(input.value), e);
    });
    field.addEventListener("change", (e) => {
      const value = typedValue(field.value);
      const problem = L.sliderProblem(key, value, [lo, hi]);
      if (problem) return FG.problems.showLocal(key, problem);
      show(value);
      edit(key, value, e);
    });
    const element = el("div", { class: "field slider-field" }, [
      el("div", { class: "field-head" }, [el("label", { class: "label", for: id }, spec.label), readout]),
      el("div", { class: "slider-body" }, [input, field]), helpLine(key), errorSlot(key)]);
    return { key, element, set(value) {
      show(value);
      if (document.activeElement !== field) field.value = shown(value);
    } };
  }

  function select(key, choices, edit) {
    const id = `field-${key}`;
    const options = choices.map(([value, text]) => el("option", { value }, text));
    const input = el("select", { id, "data-input": key, "aria-describedby": describedBy(key) }, options);
    input.addEventListener("change", (e) => edit(key, input.value, e));
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, L.KEYS[key].label), el("div", { class: "row-input" }, [input]),
      helpLine(key), errorSlot(key)]);
    return { key, element, set(value) { input.value = value; } };
  }

  function checkbox(key, edit) {
    const id = `field-${key}`;
    const input = el("input", { type: "checkbox", id, "data-input": key, "aria-describedby": describedBy(key) });
    input.addEventListener("change", (e) => edit(key, input.checked, e));
    const element = el("div", { class: "field row-field" }, [
      el("label", { class: "label", for: id }, L.KEYS[key].label), el("div", { class: "row-input" }, [input]),
      helpLine(key), errorSlot(key)]);
    return { key, element, set(value) { input.checked = value === true; } };
  }

  function range(key, edit) {
    const spec = L.KEYS[key];
    const control = new FG.RangeSlider({ key, label: spec.label, parts: spec.parts, bounds: spec.bounds,
      step: spec.step, format: spec.format, help: helpLine(key), onChange: (v, e) => edit(key, v, e) });
    return { key, element: control.element, set: (v) => control.set(v), slider: control };
  }

  /** The seed, wide enough for ten digits, with a shuffle that draws a new one and shows it. */
  function seed(edit) {
    let control = null;
    const shuffle = button("Draw a new random seed", "⟳ Shuffle", (e) => {
      const word = new Uint32Array(1);
      crypto.getRandomValues(word);
      control.set(word[0]);
      edit("seed", word[0], e);
    }, { class: "ghost small", "data-shuffle": "seed" });
    control = textField("seed", edit, { mode: "numeric", after: shuffle, wide: true });
    control.input.classList.add("seed-input");
    return control;
  }

  function nameFields(edit) {
    const name = textField("name", edit, { raw: true, wide: true });
    const id = "field-description";
    const text = el("textarea", { id, rows: "2", "data-input": "description", spellcheck: "true",
      "aria-describedby": describedBy("description") });
    text.addEventListener("change", (e) => edit("description", text.value.trim(), e));
    const description = { key: "description", element: el("div", { class: "field" }, [
      el("label", { class: "label", for: id }, L.KEYS.description.label), text, helpLine("description"),
      errorSlot("description")]),
    set(value) { if (document.activeElement !== text) text.value = shown(value); } };
    return [name, description];
  }

  /** The grain object's control (grain-control.js). */
  function grain(edit) {
    const control = new FG.GrainControl((v, e) => edit("grain", v, e));
    return { key: "grain", element: control.element, set: (v) => control.set(v), control };
  }

  /**
   * Builds every control into `container`.
   * @param {HTMLElement} container the Design panel.
   * @param {function} edit `edit(key, value, event)`.
   * @param {object} extra elements to place in sections: `palette` (the palette button row).
   * @returns {object[]} the controls, each `{key, element, set}`.
   */
  function build(container, edit, extra) {
    const list = (key, min) => {
      const spec = L.KEYS[key];
      const control = new FG.ColorList({ key, label: spec.label, noun: spec.item, min, max: 64,
        help: helpLine(key), onChange: (v, e) => edit(key, v, e) });
      return { key, element: control.element, set: (v) => control.set(v || []), list: control };
    };
    const builder = new FG.GradientBuilder({ key: "background", help: helpLine("background"),
      onChange: (v, e) => edit("background", v, e) });
    const sections = [
      ["Design", nameFields(edit)],
      ["Colours", [list("colors", 1), list("highlights", 0)], extra.palette],
      ["Background", [{ key: "background", element: builder.element, set: (v) => builder.set(v), builder }]],
      ["Blobs", [range("blobSize", edit), range("blobAspect", edit), range("opacity", edit),
        range("retargetInterval", edit)]],
      ["Motion and look", [slider("speed", edit), slider("blur", edit), seed(edit),
        select("edges", L.EDGE_CHOICES, edit), select("mixing", L.MIXING_CHOICES, edit),
        select("colorSpace", L.COLOR_SPACE_CHOICES, edit),
        textField("pointScale", edit, { mode: "decimal", unit: "×" })]],
      ["Grain", [grain(edit)]],
      ["Output", [textField("size", edit, { raw: true, wide: true, list: "sizes", unit: "px" }),
        textField("fps", edit, { mode: "decimal", unit: "frames/s" }),
        textField("duration", edit, { mode: "decimal", unit: "s" }), checkbox("loop", edit)]],
    ];
    const controls = [];
    for (const [title, items, after] of sections) {
      const heading = `section-${title.toLowerCase().replace(/\W+/g, "-")}`;
      const section = el("section", { class: "panel", "aria-labelledby": heading }, [el("h2", { id: heading }, title)]);
      for (const item of items) {
        section.append(item.element);
        controls.push(item);
      }
      if (after) section.append(after);
      container.append(section);
    }
    return controls;
  }

  return { build, typedValue };
})();
