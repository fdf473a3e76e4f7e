// Layers you can see: the preview shows the design with the background, the blobs or the
// highlights hidden. A hidden layer is the same layer made transparent (every colour's alpha
// 0), so the blobs that stay are drawn exactly as before: their places, sizes and motion come
// from the seed, not from their colours. Hiding is a way of looking, not an edit: the design
// that is exported, saved and undone keeps every layer.
"use strict";

(() => {
  const CLEAR = "#00000000";
  const hidden = new Set();

  const LAYERS = [
    ["background", "Background", (p) => Object.assign(p, { background: CLEAR })],
    ["blobs", "Blobs", (p) => {
      if (p.blobs) p.blobs = p.blobs.map((b) => Object.assign({}, b, { color: CLEAR }));
      if (p.colors) p.colors = p.colors.map(() => CLEAR);
      return p;
    }],
    ["highlights", "Highlights", (p) => {
      if (p.highlightBlobs) p.highlightBlobs = p.highlightBlobs.map((b) => Object.assign({}, b, { color: CLEAR }));
      if (p.highlights) p.highlights = p.highlights.map(() => CLEAR);
      return p;
    }],
  ];

  /** The design as the preview shows it: itself when every layer shows. */
  function view(preset) {
    if (hidden.size === 0) return preset;
    let shown = FG.model.clone(preset);
    for (const [key, , hide] of LAYERS) if (hidden.has(key)) shown = hide(shown);
    return shown;
  }

  const box = document.getElementById("layer-toggles");
  function toggle(key, label) {
    const input = FG.dom.el("input", { type: "checkbox", checked: true, "data-layer": key });
    input.addEventListener("change", () => {
      if (input.checked) hidden.delete(key); else hidden.add(key);
      studio.setView(view);
    });
    box.append(FG.dom.el("label", { title: `Show or hide the ${label.toLowerCase()} in the preview` },
      [input, label]));
  }
  for (const [key, label] of LAYERS) toggle(key, label);

  /**
   * Adds a layer toggle (for parts of the design added later, such as grain).
   * @param {string} key its name. @param {string} label its words. @param {function} hide `(preset) => preset`.
   */
  function addLayer(key, label, hide) {
    LAYERS.push([key, label, hide]);
    toggle(key, label);
  }

  studio.setView(view);
  Object.assign(window.studio, { layers: { view, hidden, addLayer } });
})();
