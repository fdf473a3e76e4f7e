// The gallery: every built-in preset as a still thumbnail (the engine's frame at 2 s, from the
// immutable frame URL of its design, so a browser or a CDN keeps it) with its description, and
// the preset menu. Choosing one replaces the design, after asking when that would discard
// edits; it is undone as any other edit.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const THUMB = [256, 144], INSTANT = 2;
  const menu = $("preset-select"), grid = $("gallery");
  let presets = [];
  let thumbnailsShown = false;
  const stats = { thumbnailsStarted: null, thumbnailsDone: null };

  async function open(name, since) {
    const value = await FG.api.json("GET", `/v1/presets/${encodeURIComponent(name)}`);
    const replaced = await studio.replace(value, `the preset “${name}”`, { since });
    if (replaced) studio.saved.forget();
    else menu.value = [...menu.options].some((o) => o.value === studio.preset().name)
      ? studio.preset().name : "";
  }

  function card(preset) {
    const img = FG.dom.el("img", { alt: "", width: String(THUMB[0]), height: String(THUMB[1]), "data-thumbnail": preset.name,
      decoding: "async" });
    const button = FG.dom.el("button", { type: "button", "data-preset": preset.name,
      "aria-describedby": `gallery-${preset.name}-description` }, [img,
      FG.dom.el("span", { class: "name" }, preset.name),
      FG.dom.el("span", { class: "description", id: `gallery-${preset.name}-description` }, preset.description)]);
    button.addEventListener("click", (e) => open(preset.name, e.timeStamp));
    return FG.dom.el("li", {}, button);
  }

  /** Loads every thumbnail (fetched with the token when the service wants one). */
  async function thumbnails() {
    if (thumbnailsShown) return;
    thumbnailsShown = true;
    stats.thumbnailsStarted = performance.now();
    const [w, h] = THUMB;
    await Promise.all(presets.map(async (preset) => {
      const img = grid.querySelector(`[data-thumbnail="${CSS.escape(preset.name)}"]`);
      const path = `/v1/designs/${preset.design}/frames/${w}x${h}/${INSTANT}.png`;
      const loaded = new Promise((resolve) => { img.onload = resolve; img.onerror = resolve; });
      if (FG.api.token()) {
        const response = await FG.api.send("GET", path);
        if (response.ok) img.src = URL.createObjectURL(await response.blob());
      } else {
        img.src = path;
      }
      await loaded;
    }));
    stats.thumbnailsDone = performance.now();
  }

  function markCurrent() {
    const name = studio.preset().name;
    for (const button of grid.querySelectorAll("[data-preset]")) {
      button.setAttribute("aria-current", String(button.dataset.preset === name));
    }
  }

  menu.addEventListener("change", (e) => { if (menu.value) open(menu.value, e.timeStamp); });
  studio.onTab((name) => { if (name === "gallery") thumbnails(); });
  studio.onDesign(markCurrent);

  /** Fetches the preset list once and fills the menu and the grid; resolves to the list. */
  async function load() {
    ({ presets } = await FG.api.json("GET", "/v1/presets"));
    menu.replaceChildren(FG.dom.el("option", { value: "" }, "Choose a preset…"),
      ...presets.map((p) => FG.dom.el("option", { value: p.name }, p.name)));
    grid.replaceChildren(...presets.map(card));
    if (studio.tab === "gallery") thumbnails();
    return presets;
  }

  Object.assign(window.studio, { gallery: { load, stats, thumbnails } });
})();
