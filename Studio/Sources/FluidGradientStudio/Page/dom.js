// Small DOM helpers shared by the studio's controls.
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
};
