// Designs that are yours: saved in this browser's localStorage with their name and
// description, listed with a thumbnail, reopened and deleted. Saving makes the design the
// baseline: the Edited marker clears and hold-to-compare shows it. Ctrl+S saves.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "fluidgradient-studio-designs";
  const list = $("saved-list"), note = $("saved-note");
  let openKey = null; // the saved entry the design came from, which Save overwrites

  function entries() {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(value) ? value.filter((e) => e && e.key && e.preset) : [];
    } catch (_) {
      return [];
    }
  }

  function store(all) {
    try {
      localStorage.setItem(KEY, JSON.stringify(all));
      return true;
    } catch (error) {
      FG.dom.flash(note, `Could not save in this browser: ${error.message}`);
      return false;
    }
  }

  /** Saves the design (over the entry it was opened from, else as a new one). */
  function save() {
    const preset = studio.preset();
    const all = entries();
    const entry = { key: openKey || `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      name: preset.name, description: preset.description || "", preset, design: studio.designId,
      savedAt: new Date().toISOString() };
    const index = all.findIndex((e) => e.key === entry.key);
    if (index >= 0) all[index] = entry; else all.unshift(entry);
    if (!store(all)) return;
    openKey = entry.key;
    studio.setBaseline(preset);
    const text = `Saved “${entry.name}” in this browser.`;
    FG.dom.flash(note, text);
    FG.dom.flash($("top-note"), text);
    render();
  }

  async function thumbnail(img, entry) {
    try {
      let id = entry.design;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await FG.api.send("GET", `/v1/designs/${id}/frames/256x144/2.png`);
        if (response.ok) { img.src = URL.createObjectURL(await response.blob()); return; }
        if (response.status !== 404) return;
        ({ id } = await studio.register(entry.preset)); // the service forgot it: post it again
      }
    } catch (_) { /* the entry stays usable without its picture */ }
  }

  function render() {
    const all = entries();
    list.replaceChildren(...all.map((entry) => {
      const img = FG.dom.el("img", { alt: "", width: "256", height: "144" });
      thumbnail(img, entry);
      const when = new Date(entry.savedAt).toLocaleString();
      const open = FG.dom.el("button", { type: "button", class: "open", "data-open-saved": entry.key }, [img,
        FG.dom.el("span", { class: "name" }, entry.name || "Untitled"),
        FG.dom.el("span", { class: "description" }, entry.description || ""),
        FG.dom.el("span", { class: "description" }, `Saved ${when}`)]);
      open.addEventListener("click", async () => {
        if (await studio.replace(entry.preset, `“${entry.name}”`)) openKey = entry.key;
      });
      const remove = FG.dom.button(`Delete “${entry.name}”`, "Delete", async () => {
        if (!(await FG.dom.confirm($("confirm-dialog"), `Delete “${entry.name}” from this browser? This cannot be undone.`,
          { title: "Delete a saved design?", ok: "Delete", cancel: "Keep it" }))) return;
        store(entries().filter((e) => e.key !== entry.key));
        if (openKey === entry.key) openKey = null;
        render();
      }, { class: "ghost small", "data-delete-saved": entry.key });
      return FG.dom.el("li", {}, [open, remove]);
    }));
    if (!all.length) list.append(FG.dom.el("li", { class: "hint" }, "Nothing saved yet."));
  }

  $("save").addEventListener("click", save);
  $("save-here").addEventListener("click", save);
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s" && !document.querySelector("dialog[open]")) {
      e.preventDefault();
      save();
    }
  });
  studio.onTab((name) => { if (name === "saved") render(); });
  Object.assign(window.studio, { saved: { save, entries, render, forget: () => { openKey = null; } } });
})();
