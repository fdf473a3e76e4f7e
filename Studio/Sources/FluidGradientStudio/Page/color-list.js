// An ordered list of colours (the blob colours, the highlights): each with a picker and its
// text, added, removed down to a minimum, and reordered by dragging its grip, by the up and
// down buttons, or by Alt+Arrow keys. Typed text goes to the preset as typed.
"use strict";
window.FG = window.FG || {};

FG.ColorList = class {
  /**
   * @param {object} options `key` ("colors" or "highlights"), `label`, `noun` (one item, e.g.
   *   "Blob colour"), `min` count, `max` count, `help` (its help line element),
   *   `onChange(list, event)`.
   */
  constructor(options) {
    Object.assign(this, options);
    this.colors = [];
    this.list = FG.dom.el("ol", { class: "color-list", "data-list": this.key, "aria-labelledby": `${this.key}-label` });
    this.addButton = FG.dom.button(`Add a ${this.noun.toLowerCase()}`, "+ Add", (e) => this.add(e),
      { class: "ghost small", "data-add": this.key });
    this.element = FG.dom.el("div", { class: "field" }, [
      FG.dom.el("div", { class: "field-head" }, [
        FG.dom.el("span", { class: "label", id: `${this.key}-label` }, this.label), this.addButton]),
      this.list, this.help || "",
      FG.dom.el("div", { class: "error", id: `error-${this.key}`, "data-error-for": this.key, role: "alert" }),
    ]);
  }

  /** Shows `colors` (strings as the preset holds them). */
  set(colors) {
    this.colors = colors.slice();
    this.render();
  }

  render() {
    const focused = document.activeElement && document.activeElement.dataset.role;
    const focusedIndex = document.activeElement && Number(document.activeElement.dataset.index);
    this.list.replaceChildren(...this.colors.map((color, index) => this.row(color, index)));
    this.addButton.disabled = this.colors.length >= this.max;
    if (focused) {
      const again = this.list.querySelector(`[data-role="${focused}"][data-index="${focusedIndex}"]`);
      if (again) again.focus();
    }
  }

  row(color, index) {
    const n = index + 1;
    const path = `${this.key}[${index}]`;
    const describedBy = `help-${this.key} error-${this.key}`;
    const picker = FG.dom.el("input", { type: "color", value: FG.model.pickerValue(color),
      "aria-label": `${this.noun} ${n}`, "data-role": "picker", "data-index": index, "data-input": path + ".picker",
      "aria-describedby": describedBy });
    picker.addEventListener("input", (e) => {
      this.replace(index, FG.model.withPicked(picker.value, this.colors[index]), e);
    });
    const text = FG.dom.el("input", { type: "text", class: "hex", value: color, spellcheck: "false",
      "aria-label": `${this.noun} ${n}, typed`, "data-role": "text", "data-index": index, "data-input": path,
      "aria-describedby": describedBy, autocomplete: "off" });
    text.addEventListener("change", (e) => this.replace(index, text.value.trim(), e));
    const grip = FG.dom.el("span",
      { class: "grip", draggable: "true", "aria-hidden": "true", title: "Drag to reorder" }, "⠿");
    const up = FG.dom.button(`Move ${this.noun.toLowerCase()} ${n} up`, "↑", (e) => this.moveItem(index, -1, e),
      { class: "icon", "data-role": "up", "data-index": index, disabled: index === 0 });
    const down = FG.dom.button(`Move ${this.noun.toLowerCase()} ${n} down`, "↓", (e) => this.moveItem(index, 1, e),
      { class: "icon", "data-role": "down", "data-index": index, disabled: index === this.colors.length - 1 });
    const remove = FG.dom.button(`Remove ${this.noun.toLowerCase()} ${n}`, "×", (e) => this.remove(index, e),
      { class: "icon", "data-role": "remove", "data-index": index, disabled: this.colors.length <= this.min });
    const item = FG.dom.el("li", { class: "color-row", "data-index": index }, [grip, picker, text, up, down, remove]);
    item.addEventListener("keydown", (e) => {
      if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
      e.preventDefault();
      this.moveItem(index, e.key === "ArrowUp" ? -1 : 1, e);
    });
    this.dragging(item, grip, index);
    return item;
  }

  /** Drag and drop by the grip: the dragged row lands where it is dropped. */
  dragging(item, grip, index) {
    grip.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData("text/x-fluidgradient-index", `${this.key}:${index}`);
      e.dataTransfer.effectAllowed = "move";
    });
    item.addEventListener("dragover", (e) => {
      if (e.dataTransfer.types.includes("text/x-fluidgradient-index")) e.preventDefault();
    });
    item.addEventListener("drop", (e) => {
      const [key, from] = (e.dataTransfer.getData("text/x-fluidgradient-index") || "").split(":");
      if (key !== this.key) return;
      e.preventDefault();
      e.stopPropagation();
      this.moveItem(Number(from), index - Number(from), e);
    });
  }

  replace(index, color, event) {
    this.colors[index] = color;
    const picker = this.list.querySelector(`[data-role="picker"][data-index="${index}"]`);
    const text = this.list.querySelector(`[data-role="text"][data-index="${index}"]`);
    if (picker && event.target !== picker) picker.value = FG.model.pickerValue(color);
    if (text && event.target !== text) text.value = color;
    this.changed(event);
  }

  /** A new colour after the last: between the last and the first, or a calm blue for the first. */
  add(event) {
    const n = this.colors.length;
    const color = n >= 2 ? FG.model.mix(this.colors[n - 1], this.colors[0], 0.5) : n === 1
      ? FG.model.mix(this.colors[0], "#FFFFFF", 0.4) : "#7C9CFF";
    this.colors.push(color);
    this.render();
    this.changed(event);
  }

  remove(index, event) {
    if (this.colors.length <= this.min) return;
    this.colors.splice(index, 1);
    this.render();
    this.changed(event);
  }

  moveItem(index, by, event) {
    const to = index + by;
    if (by === 0 || to < 0 || to >= this.colors.length) return;
    const [color] = this.colors.splice(index, 1);
    this.colors.splice(to, 0, color);
    this.render();
    const again = this.list.querySelector(`[data-role="text"][data-index="${to}"]`);
    if (again && event.type === "keydown") again.focus();
    this.changed(event);
  }

  changed(event) { this.onChange(this.colors.slice(), event); }
};
