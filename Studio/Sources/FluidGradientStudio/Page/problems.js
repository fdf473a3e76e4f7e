// Problems beside their controls: the library's (a refused preset's key path and reason) and
// the page's own (a typed value past a slider's end), worded with the control's label
// (labels.js), in the error slot its fields name in `aria-describedby`, and with
// `aria-invalid` on each field at fault: for a range, both of its fields and thumbs.
"use strict";
window.FG = window.FG || {};

FG.problems = (() => {
  let onStatus = () => {};

  /** The error slot for a key path: its own, else the nearest enclosing key's, else the page's. */
  function slotFor(path) {
    let p = path || "";
    for (;;) {
      const slot = document.querySelector(`[data-error-for="${CSS.escape(p)}"]`);
      if (slot) return slot;
      const shorter = p.replace(/(\.[^.[\]]*|\[\d+\])$/, "");
      p = shorter === p ? "" : shorter;
    }
  }

  /** The fields and thumbs that hold the value at `path` (a range's path names both ends). */
  function fieldsAt(path) {
    if (!path) return [];
    const exact = [...document.querySelectorAll(`[data-input="${CSS.escape(path)}"]`)];
    const range = document.querySelector(`[data-range="${CSS.escape(path)}"]`);
    if (range) {
      exact.push(...document.querySelectorAll(`[data-input="${CSS.escape(path)}.min"],`
        + ` [data-input="${CSS.escape(path)}.max"]`), ...range.querySelectorAll("[data-thumb]"));
    }
    const part = /^(\w+)\.(min|max)$/.exec(path);
    if (part) {
      const thumb = document.querySelector(`[data-range="${part[1]}"] [data-thumb="${part[2]}"]`);
      if (thumb) exact.push(thumb);
    }
    return exact;
  }

  function show(path, text, slotPath) {
    clear();
    const slot = slotFor(slotPath === undefined ? path : slotPath);
    slot.textContent = text;
    slot.dataset.keyPath = path || "";
    slot.classList.add("shown");
    for (const field of fieldsAt(path)) {
      field.setAttribute("aria-invalid", "true");
      const ids = (field.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
      if (slot.id && !ids.includes(slot.id)) field.setAttribute("aria-describedby", [...ids, slot.id].join(" "));
    }
    onStatus("Not rendered: see the message", true);
  }

  /** Shows a problem document from the service beside its control. */
  function showProblem(problem) {
    const path = problem.keyPath || "";
    const reason = problem.reason || problem.detail || problem.title || "the service refused this design";
    show(path, path ? FG.labels.reword(path, reason) : reason);
  }

  /**
   * Shows the page's own problem with `path`'s value (the value was not sent).
   * @param {string} [slotPath] the key whose slot shows it, when not `path`'s own.
   */
  function showLocal(path, text, slotPath) { show(path, text, slotPath); }

  function clear() {
    for (const slot of document.querySelectorAll("[data-error-for].shown")) {
      slot.textContent = "";
      slot.classList.remove("shown");
      delete slot.dataset.keyPath;
    }
    for (const input of document.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  }

  /** @param {function} listener `(text, bad)`, told when a problem is shown. */
  function statusTo(listener) { onStatus = listener; }

  return { slotFor, showProblem, showLocal, clear, statusTo };
})();
