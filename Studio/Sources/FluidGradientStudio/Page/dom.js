// Small DOM helpers shared by the studio's parts.
"use strict";
window.FG = window.FG || {};

FG.dom = {
  /**
   * A new element.
   * @param {string} tag the tag name.
   * @param {object} [attributes] attributes to set (`class`, `aria-*`, `data-*`, ...).
   * @param {string|Node|Array} [children] text, a node, or a list of them.
   * @returns {HTMLElement}
   */
  el(tag, attributes = {}, children = []) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      element.setAttribute(name, value === true ? "" : value);
    }
    for (const child of [].concat(children)) element.append(child);
    return element;
  },

  /** A small icon button with a label for assistive technology. */
  button(label, text, onClick, extra = {}) {
    const attributes = Object.assign({ type: "button", "aria-label": label, title: label }, extra);
    const button = FG.dom.el("button", attributes, text);
    button.addEventListener("click", onClick);
    return button;
  },

  /**
   * Asks a yes-or-no question in `dialog` (a `<dialog>` with a heading, a paragraph, and buttons
   * of value "cancel" and "ok").
   * @param {object} [words] `title`, `ok` and `cancel`: the heading's and the buttons' words.
   * @returns {Promise<boolean>} whether the person chose OK.
   */
  confirm(dialog, text, words = {}) {
    dialog.querySelector("h2").textContent = words.title || "Replace your edits?";
    dialog.querySelector('[value="ok"]').textContent = words.ok || "Replace";
    dialog.querySelector('[value="cancel"]').textContent = words.cancel || "Keep editing";
    dialog.querySelector("p").textContent = text;
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
      dialog.returnValue = "";
      dialog.showModal();
      dialog.querySelector('[value="cancel"]').focus();
    });
  },

  /** Says `text` in `note` (a status element) for a few seconds. */
  flash(note, text) {
    note.textContent = text;
    clearTimeout(note.flashTimer);
    note.flashTimer = setTimeout(() => { if (note.textContent === text) note.textContent = ""; }, 3000);
  },

  /** Puts `text` on the clipboard (the selection and copy command where the async API is refused). */
  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const scratch = FG.dom.el("textarea", { class: "visually-hidden", "aria-hidden": "true" }, text);
      document.body.append(scratch);
      scratch.select();
      document.execCommand("copy");
      scratch.remove();
    }
  },

  /** Saves `blob` as a download named `name`. */
  download(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = FG.dom.el("a", { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  },

  /** A file name made of safe characters from `text`. */
  safeName(text) { return String(text || "studio").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "studio"; },
};
