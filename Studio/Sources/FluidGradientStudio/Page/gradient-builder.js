// The background fill (the seed's gradient builder): a colour, or a linear, radial or conic
// gradient with an angle and at least two stops. A click on the bar adds a stop there with
// the colour the gradient has there; a stop is dragged along the bar (stops stay sorted by
// location), selected to edit its location and colour, and deleted while more than two are
// left. Keyboard on a focused stop: arrows move it by 0.01, Page Up/Down by 0.1, Home/End to
// an end, Delete or Backspace removes it; "Add stop" inserts one halfway between the last
// two with their mean colour (DESIGN section 7). The handles are in the document in the
// order of their positions, so Tab visits them left to right.
"use strict";
window.FG = window.FG || {};

FG.GradientBuilder = class {
  /** @param {object} options `key` ("background"), `help` (its help line element), `onChange(fill, event)`. */
  constructor(options) {
    Object.assign(this, options);
    this.kind = "color";
    this.color = "#000000";
    this.gradient = { type: "linear", angle: 270, stops: [] };
    this.nextId = 1;
    this.selected = null;
    this.handles = new Map();
    this.element = this.build();
  }

  build() {
    const kinds = FG.dom.el("div", { class: "segmented", role: "radiogroup", "aria-label": "Background type" });
    this.radios = {};
    for (const kind of ["color", "linear", "radial", "conic"]) {
      const id = `${this.key}-${kind}`;
      const input = FG.dom.el("input", { type: "radio", name: `${this.key}-kind`, value: kind, id });
      input.addEventListener("change", (e) => this.switchKind(kind, e));
      this.radios[kind] = input;
      const name = kind === "color" ? "Colour" : kind[0].toUpperCase() + kind.slice(1);
      kinds.append(input, FG.dom.el("label", { for: id }, name));
    }
    this.colorPanel = this.colorEditor(`${this.key}`, "Background colour", () => this.color, (c, e) => {
      this.color = c;
      this.emit(e);
    });
    this.dial = new FG.AngleDial({ label: "Background direction", path: `${this.key}.angle`,
      describedBy: `help-${this.key}-angle error-${this.key}`, onChange: (angle, e) => {
      this.gradient.angle = angle;
      this.emit(e);
    } });
    this.angleHelp = FG.dom.el("p", { class: "help", id: `help-${this.key}-angle` });
    this.bar = FG.dom.el("div", { class: "stops-bar", "data-stops": this.key, title: "Click to add a stop" });
    this.bar.addEventListener("click", (e) => this.clickBar(e));
    this.stopEditor = FG.dom.el("div", { class: "stop-editor" });
    const addStop = FG.dom.button("Add stop", "+ Stop", (e) => this.insertStop(e),
      { class: "ghost small", "data-add": "stop" });
    this.gradientPanel = FG.dom.el("div", { class: "gradient-panel" }, [
      FG.dom.el("div", { class: "gradient-top" }, [this.dial.element, addStop]), this.angleHelp,
      FG.dom.el("p", { class: "help", id: `help-${this.key}-stops` },
        "Click the bar to add a stop; drag a stop, or use the arrow keys on it; Delete removes it."),
      FG.dom.el("div", { class: "stops-wrap" }, [this.bar]), this.stopEditor]);
    return FG.dom.el("div", { class: "field" }, [
      FG.dom.el("div", { class: "field-head" }, [FG.dom.el("span", { class: "label" }, "Background")]),
      kinds, this.help || "", this.colorPanel, this.gradientPanel,
      FG.dom.el("div", { class: "error", id: `error-${this.key}`, "data-error-for": this.key, role: "alert" })]);
  }

  /** A picker and a text field for one colour, read with `get` and written with `put(color, event)`. */
  colorEditor(path, label, get, put) {
    const describedBy = `help-${this.key} error-${this.key}`;
    const picker = FG.dom.el("input", { type: "color", "aria-label": label, "data-input": path + ".picker",
      "aria-describedby": describedBy });
    const text = FG.dom.el("input", { type: "text", class: "hex", "aria-label": `${label}, typed`, "data-input": path,
      spellcheck: "false", autocomplete: "off", "aria-describedby": describedBy });
    picker.addEventListener("input", (e) => {
      const color = FG.model.withPicked(picker.value, get());
      text.value = color;
      put(color, e);
    });
    text.addEventListener("change", (e) => {
      picker.value = FG.model.pickerValue(text.value.trim());
      put(text.value.trim(), e);
    });
    const editor = FG.dom.el("div", { class: "color-editor" }, [picker, text]);
    editor.show = () => {
      picker.value = FG.model.pickerValue(get());
      if (document.activeElement !== text) text.value = get();
    };
    return editor;
  }

  /** Shows `fill`: a colour string or a gradient object with located stops. */
  set(fill) {
    if (typeof fill === "object" && fill) {
      this.kind = fill.type;
      const stops = fill.stops.map((s) => ({ id: this.nextId++, location: s.location, color: s.color }));
      this.gradient = { type: fill.type, angle: fill.angle, stops };
      this.sortStops();
      if (!this.gradient.stops.some((s) => s.id === this.selected)) this.selected = this.gradient.stops[0]?.id ?? null;
    } else {
      this.kind = "color";
      this.color = fill;
    }
    this.render();
  }

  /** The fill as the preset holds it. */
  value() {
    if (this.kind === "color") return this.color;
    return { type: this.kind, angle: this.gradient.angle,
      stops: this.gradient.stops.map((s) => ({ location: s.location, color: s.color })) };
  }

  emit(event) {
    this.render();
    this.onChange(this.value(), event);
  }

  /** Colour → gradient starts from the colour; gradient → colour keeps the first stop's colour. */
  switchKind(kind, event) {
    if (kind === this.kind) return;
    if (kind === "color") {
      this.color = this.gradient.stops[0]?.color ?? this.color;
    } else if (this.kind === "color" && this.gradient.stops.length < 2) {
      const base = FG.model.rgba(this.color) ? this.color : "#000000";
      this.gradient.stops = [{ id: this.nextId++, location: 0, color: base },
        { id: this.nextId++, location: 1, color: FG.model.mix(base, "#7C9CFF", 0.5) }];
      this.selected = this.gradient.stops[0].id;
    }
    this.kind = kind;
    this.gradient.type = kind === "color" ? this.gradient.type : kind;
    this.emit(event);
  }

  sortStops() {
    this.gradient.stops.sort((a, b) => (Number(a.location) || 0) - (Number(b.location) || 0));
  }

  /** The gradient's colour at `location` (straight interpolation between its neighbours). */
  colorAt(location) {
    const stops = this.gradient.stops;
    if (location <= stops[0].location) return stops[0].color;
    for (let i = 1; i < stops.length; i += 1) {
      if (location <= stops[i].location) {
        const span = stops[i].location - stops[i - 1].location;
        const t = span > 0 ? (location - stops[i - 1].location) / span : 0;
        return FG.model.mix(stops[i - 1].color, stops[i].color, t);
      }
    }
    return stops[stops.length - 1].color;
  }

  clickBar(event) {
    if (event.target !== this.bar) return;
    const rect = this.bar.getBoundingClientRect();
    const location = Math.round(FG.model.clamp01((event.clientX - rect.left) / rect.width) * 1000) / 1000;
    this.addStop(location, this.colorAt(location), event);
  }

  /** The seed's insert: halfway between the last two stops, with their mean colour. */
  insertStop(event) {
    const stops = this.gradient.stops;
    const [a, b] = stops.slice(-2);
    this.addStop(Math.round(((a.location + b.location) / 2) * 1000) / 1000, FG.model.mix(a.color, b.color, 0.5), event);
  }

  addStop(location, color, event) {
    const stop = { id: this.nextId++, location, color };
    this.gradient.stops.push(stop);
    this.sortStops();
    this.selected = stop.id;
    this.emit(event);
    this.handles.get(stop.id)?.focus();
  }

  deleteStop(id, event) {
    if (this.gradient.stops.length <= 2) return;
    const index = this.gradient.stops.findIndex((s) => s.id === id);
    this.gradient.stops.splice(index, 1);
    const next = this.gradient.stops[Math.min(index, this.gradient.stops.length - 1)];
    this.selected = next.id;
    this.emit(event);
    this.handles.get(next.id)?.focus();
  }

  moveStop(id, location, event) {
    const stop = this.gradient.stops.find((s) => s.id === id);
    const next = Math.round(FG.model.clamp01(location) * 1000) / 1000;
    if (stop.location === next) return;
    stop.location = next;
    this.sortStops();
    this.emit(event);
  }

  render() {
    for (const [kind, radio] of Object.entries(this.radios)) radio.checked = kind === this.kind;
    const gradient = this.kind !== "color";
    this.colorPanel.hidden = gradient;
    this.gradientPanel.hidden = !gradient;
    this.colorPanel.show();
    if (!gradient) return;
    this.dial.set(this.gradient.angle);
    this.dial.element.classList.toggle("muted", this.kind === "radial");
    this.angleHelp.textContent = this.kind === "radial" ? "A radial gradient runs from the centre out; the "
      + "direction does not change it." : this.kind === "conic" ? "Where the sweep starts, in degrees "
      + "anticlockwise from east." : FG.labels.angleHint(this.gradient.angle);
    const stops = this.gradient.stops;
    this.bar.style.background = FG.model.fillCSS({ type: "linear", angle: 0, stops });
    this.renderHandles();
    this.renderEditor();
  }

  /**
   * One handle per stop, kept across renders so a drag's pointer capture survives re-sorting;
   * put in the order of the stops' positions (for Tab) once no stop is being dragged.
   */
  renderHandles() {
    const stops = this.gradient.stops;
    for (const [id, handle] of this.handles) {
      if (!stops.some((s) => s.id === id)) { handle.remove(); this.handles.delete(id); }
    }
    stops.forEach((stop, index) => {
      let handle = this.handles.get(stop.id);
      if (!handle) {
        handle = this.makeHandle(stop.id);
        this.handles.set(stop.id, handle);
        this.bar.parentElement.append(handle);
      }
      const percent = Math.round(FG.model.clamp01(stop.location) * 1000) / 10;
      handle.style.left = `${FG.model.clamp01(stop.location) * 100}%`;
      handle.style.setProperty("--swatch", FG.model.css(stop.color));
      handle.setAttribute("aria-label", `Stop ${index + 1} of ${stops.length}`);
      handle.setAttribute("aria-valuenow", String(percent));
      handle.setAttribute("aria-valuetext", `${percent}%, ${stop.color}`);
      handle.dataset.index = String(index);
      handle.classList.toggle("selected", stop.id === this.selected);
    });
    if (this.draggingId === undefined || this.draggingId === null) {
      const ordered = stops.map((s) => this.handles.get(s.id)).filter(Boolean);
      const inDocument = [...this.bar.parentElement.querySelectorAll(".stop-handle")];
      if (ordered.some((handle, i) => inDocument[i] !== handle)) {
        const focused = document.activeElement;
        this.bar.parentElement.append(...ordered);
        if (ordered.includes(focused)) focused.focus();
      }
    }
  }

  makeHandle(id) {
    const handle = FG.dom.el("div", { class: "stop-handle", role: "slider", tabindex: "0", "aria-valuemin": "0",
      "aria-valuemax": "100", "data-stop": "", "aria-describedby": `help-${this.key}-stops error-${this.key}` });
    handle.addEventListener("keydown", (e) => this.keyDown(id, e));
    handle.addEventListener("focus", () => { if (this.selected !== id) { this.selected = id; this.render(); } });
    handle.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      handle.focus();
      this.selected = id;
      this.render();
      handle.setPointerCapture(e.pointerId);
      this.draggingId = id;
      const follow = (m) => {
        const rect = this.bar.getBoundingClientRect();
        this.moveStop(id, (m.clientX - rect.left) / rect.width, m);
      };
      const up = () => {
        this.draggingId = null;
        this.renderHandles();
        handle.removeEventListener("pointermove", follow);
        handle.removeEventListener("pointerup", up);
        handle.removeEventListener("pointercancel", up);
      };
      handle.addEventListener("pointermove", follow);
      handle.addEventListener("pointerup", up);
      handle.addEventListener("pointercancel", up);
    });
    return handle;
  }

  keyDown(id, event) {
    const stop = this.gradient.stops.find((s) => s.id === id);
    const moves = { ArrowLeft: -0.01, ArrowDown: -0.01, ArrowRight: 0.01, ArrowUp: 0.01, PageDown: -0.1, PageUp: 0.1 };
    if (event.key in moves) this.moveStop(id, Number(stop.location) + moves[event.key], event);
    else if (event.key === "Home") this.moveStop(id, 0, event);
    else if (event.key === "End") this.moveStop(id, 1, event);
    else if (event.key === "Delete" || event.key === "Backspace") this.deleteStop(id, event);
    else return;
    event.preventDefault();
  }

  /** The selected stop's location, colour and delete button. */
  renderEditor() {
    const stops = this.gradient.stops;
    const index = stops.findIndex((s) => s.id === this.selected);
    if (index < 0) { this.stopEditor.replaceChildren(); this.editorKey = null; return; }
    const stop = stops[index];
    const key = `${stop.id}:${index}:${stops.length}`;
    if (this.editorKey === key) {
      if (document.activeElement !== this.editorParts.location) this.editorParts.location.value = String(stop.location);
      this.editorParts.color.show();
      return;
    }
    this.editorKey = key;
    const path = `${this.key}.stops[${index}]`;
    const location = FG.dom.el("input", { type: "text", class: "num", inputmode: "decimal",
      value: String(stop.location), "aria-label": `Stop ${index + 1} position, 0 to 1`,
      "data-input": `${path}.location`, spellcheck: "false", autocomplete: "off",
      "aria-describedby": `help-${this.key}-stops error-${this.key}` });
    location.addEventListener("change", (e) => {
      const number = Number(location.value.trim());
      stop.location = location.value.trim() !== "" && isFinite(number) ? number : location.value.trim();
      this.sortStops();
      this.emit(e);
    });
    const color = this.colorEditor(`${path}.color`, `Stop ${index + 1} colour`, () => stop.color, (c, e) => {
      stop.color = c;
      this.emit(e);
    });
    color.show();
    const remove = FG.dom.button(`Delete stop ${index + 1}`, "Delete", (e) => this.deleteStop(stop.id, e),
      { class: "ghost small", disabled: stops.length <= 2, "data-delete": "stop" });
    this.editorParts = { location, color };
    this.stopEditor.replaceChildren(FG.dom.el("span", { class: "label" }, `Stop ${index + 1}`),
      FG.dom.el("label", { class: "inline" }, ["at ", location]), color, remove);
  }
};
