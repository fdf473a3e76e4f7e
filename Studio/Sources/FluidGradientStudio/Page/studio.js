// The studio: the preset the controls edit, sent to the service on every edit
// (POST /v1/designs, where the library validates it), the preview of the design that comes
// back, problems shown beside their control, and `window.studio` for tests and measurement.
"use strict";
window.FG = window.FG || {};

(() => {
  const stats = { framesDrawn: 0, frameTimes: [], editLatencies: [] };
  let state = FG.model.complete({});
  let controls = [];
  let designId = null;
  let pendingSince = null; // performance.now() of the first edit not yet sent
  let posting = false;
  const listeners = [];

  const preview = new FG.Preview(document.getElementById("preview"), stats, {
    onTime: (t, k, n) => transport(t, k, n),
    onMissing: () => send(performance.now()),
  });

  /** The preset as the controls hold it, in the file's key order. */
  const preset = () => FG.model.ordered(FG.model.clone(state));

  /**
   * One edit from a control: the key's new value, sent at once (or as soon as the request in
   * flight returns; edits in between are sent together).
   */
  function edit(key, value, event) {
    state[key] = value;
    send(event && event.timeStamp ? event.timeStamp : performance.now());
  }

  function send(since) {
    if (pendingSince === null) pendingSince = since;
    if (!posting) post();
  }

  async function post() {
    posting = true;
    try {
      while (pendingSince !== null) {
        const since = pendingSince;
        pendingSince = null;
        const current = preset();
        status("Rendering…");
        let result;
        preview.hold(true); // the service's time goes to this edit, then to its first frame
        try {
          result = await FG.api.json("POST", "/v1/designs", { body: current });
        } catch (error) {
          showProblem(error.problem || { detail: error.message });
          continue;
        } finally {
          preview.hold(false);
        }
        clearProblems();
        if (result.id !== designId) {
          designId = result.id;
          preview.show(result.id, current, since);
        }
        status(`Design ${result.id.slice(0, 8)} · ${result.frameCount} frames`);
        history.replaceState(null, "", "#" + FG.model.fragment(current));
        for (const listener of listeners) listener(result.id, current);
      }
    } finally {
      posting = false;
    }
  }

  // ---- problems beside their controls --------------------------------------------------------

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

  function showProblem(problem) {
    clearProblems();
    const path = problem.keyPath || "";
    const reason = problem.reason || problem.detail || problem.title || "the service refused this preset";
    const slot = slotFor(path);
    slot.textContent = path ? `${path}: ${reason}` : reason;
    slot.dataset.keyPath = path;
    slot.classList.add("shown");
    for (const input of document.querySelectorAll(`[data-input="${CSS.escape(path)}"]`)) {
      input.setAttribute("aria-invalid", "true");
    }
    status("Not rendered: see the message", true);
  }

  function clearProblems() {
    for (const slot of document.querySelectorAll("[data-error-for].shown")) {
      slot.textContent = "";
      slot.classList.remove("shown");
      delete slot.dataset.keyPath;
    }
    for (const input of document.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  }

  function status(text, bad = false) {
    const element = document.getElementById("status");
    element.textContent = text;
    element.classList.toggle("bad", bad);
  }

  /** Shows `value` (a preset object) in every control and sends it. */
  function load(value, since = performance.now()) {
    state = FG.model.complete(value);
    const menu = document.getElementById("preset-select");
    menu.value = [...menu.options].some((o) => o.value === state.name) ? state.name : "";
    for (const control of controls) control.set(state[control.key]);
    send(since);
  }

  // ---- transport: play, pause, scrub ---------------------------------------------------------

  const playButton = document.getElementById("play");
  const scrubber = document.getElementById("scrubber");
  function transport(t, k, n) {
    scrubber.max = String(n - 1);
    if (document.activeElement !== scrubber) scrubber.value = String(k);
    document.getElementById("time").textContent = `${t.toFixed(2)} s`;
  }
  function setPlaying(on) {
    preview.play(on);
    playButton.textContent = on ? "❚❚" : "▶";
    playButton.setAttribute("aria-label", on ? "Pause" : "Play");
    playButton.setAttribute("aria-pressed", String(on));
  }
  playButton.addEventListener("click", () => setPlaying(!preview.playing));
  // The preview's own measure: frames per second over the last 30 draws, and the last edit's latency.
  setInterval(() => {
    const times = stats.frameTimes.slice(-31);
    const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
    const fps = preview.playing && gaps.length > 10 ? `${(1000 / gaps[gaps.length >> 1]).toFixed(0)} fps` : "";
    const last = stats.editLatencies[stats.editLatencies.length - 1];
    document.getElementById("meter").textContent = [fps, last ? `edit → pixels ${last.toFixed(0)} ms` : ""]
      .filter(Boolean).join(" · ");
  }, 1000);
  scrubber.addEventListener("input", () => { setPlaying(false); preview.seek(Number(scrubber.value)); });
  setPlaying(preview.playing);

  // ---- presets and palette -------------------------------------------------------------------

  async function presets() {
    const menu = document.getElementById("preset-select");
    const { presets: list } = await FG.api.json("GET", "/v1/presets");
    menu.replaceChildren(FG.dom.el("option", { value: "" }, "Choose a preset…"),
      ...list.map((p) => FG.dom.el("option", { value: p.name, title: p.description }, p.name)));
    menu.addEventListener("change", async (e) => {
      if (!menu.value) return;
      const since = e.timeStamp;
      load(await FG.api.json("GET", `/v1/presets/${encodeURIComponent(menu.value)}`), since);
    });
    return list;
  }

  /** The colours of an image (drawn to a canvas and sent as PNG) become the blob colours. */
  async function palette(file, event) {
    const since = event.timeStamp;
    try {
      const bitmap = await createImageBitmap(file);
      const scale = Math.min(1, 512 / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
      const count = Math.min(8, Math.max(2, (state.colors || []).length));
      const { colors } = await FG.api.json("POST", `/v1/palette?count=${count}`, { body: png });
      state.colors = colors;
      controls.find((c) => c.key === "colors").set(colors);
      send(since);
    } catch (error) {
      showProblem(error.problem ? Object.assign({ keyPath: "colors" }, error.problem)
        : { keyPath: "colors", reason: `could not read that image (${error.message})` });
    }
  }

  function paletteRow() {
    const input = FG.dom.el("input", { type: "file", accept: "image/*", id: "palette-file", class: "visually-hidden" });
    input.addEventListener("change", (e) => { if (input.files[0]) palette(input.files[0], e); input.value = ""; });
    return FG.dom.el("div", { class: "palette-row" }, [input,
      FG.dom.el("label", { for: "palette-file", class: "button ghost small", tabindex: "0", role: "button" },
        "Palette from image…"),
      FG.dom.el("span", { class: "hint" }, "or drop an image on the page")]);
  }

  document.addEventListener("dragover", (e) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", (e) => {
    document.body.classList.remove("dropping");
    const file = [...(e.dataTransfer.files || [])].find((f) => f.type.startsWith("image/"));
    if (!file || e.target.closest("[data-target-drop]")) return;
    e.preventDefault();
    palette(file, e);
  });

  // A label that opens a file picker acts as a button from the keyboard too.
  document.addEventListener("keydown", (e) => {
    const label = e.target.closest && e.target.closest("label.button[for]");
    if (!label || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    label.click();
  });

  // ---- start ---------------------------------------------------------------------------------

  controls = FG.controls.build(document.getElementById("controls"), edit, { palette: paletteRow() });

  window.studio = {
    get designId() { return designId; },
    get lastFrameURL() { return preview.lastFrameURL; },
    get busy() { return posting || pendingSince !== null; },
    stats, preset, load, edit: (key, value) => edit(key, value, null),
    play: () => setPlaying(true), pause: () => setPlaying(false), seek: (k) => preview.seek(k),
    preview, onDesign: (listener) => listeners.push(listener), showProblem, slotFor,
  };

  (async () => {
    let initial = null;
    try {
      initial = FG.model.fromFragment(location.hash);
    } catch (error) {
      showProblem({ reason: `this link's preset could not be read (${error.message}); showing the default` });
    }
    try {
      await presets();
      load(initial || (await FG.api.json("GET", "/v1/presets/default")));
    } catch (error) {
      if (initial) load(initial);
      else showProblem(error.problem || { detail: `the render service did not answer (${error.message})` });
    }
  })();
})();
