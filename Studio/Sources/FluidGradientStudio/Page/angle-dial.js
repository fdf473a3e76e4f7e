// The angle dial of a gradient (the seed's linear gradient direction): degrees anticlockwise
// from east, so 0 runs left to right, 90 bottom to top and 270 top to bottom. The needle
// points where the gradient goes. Drag it (Shift snaps to 15°), or use the keyboard: Up and
// Right turn anticlockwise by 1°, Down and Left clockwise, Page Up/Down by 15°, Home to 0°.
"use strict";
window.FG = window.FG || {};

FG.AngleDial = class {
  /**
   * @param {object} options `label`, `path` (the key path, e.g. "background.angle"), `onChange(angle, event)`,
   *   and `describedBy` (the ids of its help line and error slot).
   */
  constructor(options) {
    Object.assign(this, options);
    this.angle = 0;
    this.needle = FG.dom.el("div", { class: "dial-needle" });
    this.dial = FG.dom.el("div", { class: "dial", role: "slider", tabindex: "0", "aria-label": this.label,
      "aria-valuemin": "0", "aria-valuemax": "360", "data-dial": this.path }, [
      FG.dom.el("div", { class: "dial-face" }), this.needle, FG.dom.el("div", { class: "dial-hub" })]);
    this.input = FG.dom.el("input", { type: "text", class: "num", inputmode: "decimal",
      "aria-label": `${this.label} in degrees`, "data-input": this.path, spellcheck: "false" });
    if (this.describedBy) {
      for (const e of [this.dial, this.input]) e.setAttribute("aria-describedby", this.describedBy);
    }
    this.input.addEventListener("change", (e) => {
      const number = Number(this.input.value.trim());
      this.commit(this.input.value.trim() !== "" && isFinite(number) ? number : this.input.value.trim(), e);
    });
    this.dial.addEventListener("keydown", (e) => this.keyDown(e));
    this.dial.addEventListener("pointerdown", (e) => this.press(e));
    this.element = FG.dom.el("div", { class: "dial-row" }, [this.dial,
      FG.dom.el("label", { class: "dial-input" }, [this.input, FG.dom.el("span", { class: "unit" }, "°")])]);
  }

  /** Shows `angle` (as the preset holds it; a value outside 0...360 is shown where it points). */
  set(angle) {
    this.angle = angle;
    this.render();
  }

  render() {
    const numeric = typeof this.angle === "number" && isFinite(this.angle);
    const shown = numeric ? ((this.angle % 360) + 360) % 360 : 0;
    // CSS rotates clockwise from east with y down, so an anticlockwise angle is negated.
    this.needle.style.transform = `rotate(${-shown}deg)`;
    this.dial.setAttribute("aria-valuenow", String(shown));
    const names = { 0: "left to right", 90: "bottom to top", 180: "right to left", 270: "top to bottom" };
    const text = numeric ? `${shown}°` + (names[shown] ? `, ${names[shown]}` : "") : String(this.angle);
    this.dial.setAttribute("aria-valuetext", text);
    if (document.activeElement !== this.input) this.input.value = String(this.angle);
  }

  commit(angle, event) {
    if (angle === this.angle) return;
    this.angle = angle;
    this.render();
    this.onChange(angle, event);
  }

  keyDown(event) {
    const current = typeof this.angle === "number" && isFinite(this.angle) ? ((this.angle % 360) + 360) % 360 : 0;
    const turns = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 15, PageDown: -15 };
    if (event.key in turns) this.commit((((current + turns[event.key]) % 360) + 360) % 360, event);
    else if (event.key === "Home") this.commit(0, event);
    else if (event.key === "End") this.commit(359, event);
    else return;
    event.preventDefault();
  }

  press(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    this.dial.focus();
    this.dial.setPointerCapture(event.pointerId);
    const follow = (e) => {
      const rect = this.dial.getBoundingClientRect();
      const dx = e.clientX - (rect.left + rect.width / 2);
      const dy = e.clientY - (rect.top + rect.height / 2);
      if (dx === 0 && dy === 0) return;
      const degrees = (Math.atan2(-dy, dx) * 180) / Math.PI; // y grows downwards on screen
      const snap = e.shiftKey ? 15 : 1;
      this.commit(((Math.round(degrees / snap) * snap) % 360 + 360) % 360, e);
    };
    follow(event);
    const up = () => {
      this.dial.removeEventListener("pointermove", follow);
      this.dial.removeEventListener("pointerup", up);
      this.dial.removeEventListener("pointercancel", up);
    };
    this.dial.addEventListener("pointermove", follow);
    this.dial.addEventListener("pointerup", up);
    this.dial.addEventListener("pointercancel", up);
  }
};
