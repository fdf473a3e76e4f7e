// Undo and redo: the designs the page has shown, as whole presets, one entry per edit. A
// gesture (a drag, a picker held open, a key held down) is one entry: its edits replace the
// open entry until the gesture ends (pointer or key up, a committed field, leaving a control,
// or a second without edits).
"use strict";
window.FG = window.FG || {};

FG.History = class {
  /** @param {number} limit the most entries kept (the oldest are dropped). */
  constructor(limit = 500) {
    this.limit = limit;
    this.entries = [];
    this.index = -1;
    this.open = null; // { key } of the entry a gesture may still replace
    this.timer = null;
    this.listeners = [];
  }

  /** Starts the history at `preset` (nothing to undo). */
  reset(preset) {
    this.entries = [FG.model.clone(preset)];
    this.index = 0;
    this.close();
    this.changed();
  }

  /**
   * Records `preset` as the result of an edit of `key`.
   * @param {boolean} continuing whether the edit is a step of a gesture (pointer move, input).
   */
  record(preset, key, continuing) {
    const same = JSON.stringify(preset) === JSON.stringify(this.entries[this.index]);
    if (same) return;
    if (continuing && this.open && this.open.key === key && this.index === this.entries.length - 1) {
      this.entries[this.index] = FG.model.clone(preset);
    } else {
      this.entries.splice(this.index + 1);
      this.entries.push(FG.model.clone(preset));
      if (this.entries.length > this.limit) this.entries.shift();
      this.index = this.entries.length - 1;
    }
    this.open = continuing ? { key } : null;
    clearTimeout(this.timer);
    if (continuing) this.timer = setTimeout(() => this.close(), 1000);
    this.changed();
  }

  /** Ends the gesture in progress: the next edit makes a new entry. */
  close() {
    this.open = null;
    clearTimeout(this.timer);
  }

  get canUndo() { return this.index > 0; }
  get canRedo() { return this.index < this.entries.length - 1; }

  /** The preset before the current one, now current; null when there is none. */
  undo() {
    this.close();
    if (!this.canUndo) return null;
    this.index -= 1;
    this.changed();
    return FG.model.clone(this.entries[this.index]);
  }

  /** The preset after the current one, now current; null when there is none. */
  redo() {
    this.close();
    if (!this.canRedo) return null;
    this.index += 1;
    this.changed();
    return FG.model.clone(this.entries[this.index]);
  }

  onChange(listener) { this.listeners.push(listener); }
  changed() { for (const listener of this.listeners) listener(this); }
};
