// The studio: the preset the controls edit, sent to the service on every edit
// (POST /v1/designs, where the library validates it), the preview of what comes back, undo
// and redo over every edit, the design as loaded or last saved (the baseline the Edited
// marker and hold-to-compare measure against), and `window.studio` for the page's other
// parts, the tests and measurement.
"use strict";
window.FG = window.FG || {};

(() => {
  const $ = (id) => document.getElementById(id);
  const stats = { framesDrawn: 0, frameTimes: [], editLatencies: [] };
  const history = new FG.History();
  let state = FG.model.complete({});
  let baseline = FG.model.ordered(FG.model.clone(state));
  let controls = [];
  let designId = null, viewId = null;
  let pendingSince = null; // performance.now() of the first edit not yet sent
  let posting = false;
  const listeners = [];
  let viewOf = (preset) => preset; // the layers' view of a design (layers.js)

  const preview = new FG.Preview($("preview"), stats, {
    onTime: (t, k, n) => transport(t, k, n),
    onMissing: () => send(performance.now()),
  });

  /** The preset as the controls hold it, in the file's key order. */
  const preset = () => FG.model.ordered(FG.model.clone(state));
  const same = (a, b) => JSON.stringify(FG.model.ordered(a)) === JSON.stringify(FG.model.ordered(b));

  /** Whether a pointer move or an input event continues a gesture (one undo step). */
  const continuing = (event) => Boolean(event && (event.type === "pointermove" || event.type === "input"));

  /**
   * One edit from a control: the key's new value, recorded for undo and sent at once (or as
   * soon as the request in flight returns; edits in between are sent together).
   */
  function edit(key, value, event) {
    state[key] = value;
    history.record(preset(), key, continuing(event));
    send(event && event.timeStamp ? event.timeStamp : performance.now());
    marks();
  }

  let started = false;
  function send(since) {
    if (!started) return;
    if (pendingSince === null) pendingSince = since;
    if (!posting) post();
  }

  /** POST /v1/designs; its id, and the id of the view the preview shows when a layer is hidden. */
  async function register(value) {
    return FG.api.json("POST", "/v1/designs", { body: value });
  }

  async function post() {
    posting = true;
    try {
      while (pendingSince !== null) {
        const since = pendingSince;
        pendingSince = null;
        const current = preset();
        status("Rendering…");
        let result, view;
        preview.hold(true); // the service's time goes to this edit, then to its first frame
        try {
          result = await register(current);
          const shown = viewOf(current);
          view = shown === current ? result : await register(shown);
        } catch (error) {
          FG.problems.showProblem(error.problem || { detail: error.message });
          continue;
        } finally {
          preview.hold(false);
        }
        FG.problems.clear();
        designId = result.id;
        if (view.id !== viewId || !preview.design) {
          viewId = view.id;
          preview.show(view.id, current, since);
        }
        status(`Design ${result.id.slice(0, 8)} · ${result.frameCount} frames`);
        window.history.replaceState(null, "", "#" + FG.model.fragment(current));
        for (const listener of listeners) listener(result.id, current);
      }
    } finally {
      posting = false;
    }
  }

  function status(text, bad = false) {
    const element = $("status");
    element.textContent = text;
    element.classList.toggle("bad", bad);
  }
  FG.problems.statusTo(status);

  /** Shows `value` in every control and sends it; `record` makes it an undo step. */
  function show(value, { record = true, since = performance.now() } = {}) {
    state = FG.model.complete(value);
    const menu = $("preset-select");
    if (menu) menu.value = [...menu.options].some((o) => o.value === state.name) ? state.name : "";
    for (const control of controls) control.set(state[control.key]);
    if (record) history.record(preset(), "*", false);
    send(since);
    marks();
  }

  /** The design as loaded or last saved: what Edited and hold-to-compare measure against. */
  function setBaseline(value) {
    baseline = FG.model.ordered(FG.model.complete(value));
    marks();
  }

  const edited = () => !same(preset(), baseline);

  /** The top bar's name, Edited marker, and the undo and redo buttons. */
  function marks() {
    $("design-name").textContent = state.name || "Untitled";
    $("edited").hidden = !edited();
    document.title = `${edited() ? "• " : ""}${state.name || "Untitled"} · FluidGradient Studio`;
    $("undo").disabled = !history.canUndo;
    $("redo").disabled = !history.canRedo;
  }
  history.onChange(marks);

  /**
   * Replaces the whole design (a preset, a saved design), asking first when that would
   * discard edits not saved. Resolves to whether it was replaced.
   */
  async function replace(value, what, { since = performance.now(), asBaseline = true } = {}) {
    if (edited() && !(await FG.dom.confirm($("confirm-dialog"),
      `Your design has edits that are not saved. Open ${what} instead? Undo (Ctrl+Z) brings your edits back.`))) {
      return false;
    }
    show(value, { since });
    if (asBaseline) setBaseline(value);
    return true;
  }

  function undo() { const value = history.undo(); if (value) show(value, { record: false }); }
  function redo() { const value = history.redo(); if (value) show(value, { record: false }); }
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);

  /** A text field whose typing is not committed yet keeps Ctrl+Z for itself. */
  function typingIn(target) {
    const field = target && target.closest && target.closest("input[type=text], textarea, input[type=number]");
    return Boolean(field && field.value !== field.dataset.committed && field.dataset.committed !== undefined);
  }
  document.addEventListener("focusin", (e) => {
    if (e.target.matches && e.target.matches("input, textarea")) e.target.dataset.committed = e.target.value;
  });
  document.addEventListener("change", (e) => {
    if (e.target.dataset) e.target.dataset.committed = e.target.value;
    history.close();
  });
  document.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (!mod || e.altKey || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    if ((key === "z" || key === "y") && !typingIn(e.target)) {
      e.preventDefault();
      if (key === "y" || e.shiftKey) redo(); else undo();
    }
  });
  for (const type of ["pointerup", "keyup", "focusout"]) document.addEventListener(type, () => history.close());

  // ---- transport: play, pause, scrub ---------------------------------------------------------

  const playButton = $("play");
  const scrubber = $("scrubber");
  function transport(t, k, n) {
    scrubber.max = String(n - 1);
    if (document.activeElement !== scrubber) scrubber.value = String(k);
    const total = n / FG.Preview.FPS;
    scrubber.setAttribute("aria-valuetext", `${t.toFixed(2)} s of ${total.toFixed(2)} s`);
    $("time").textContent = `${t.toFixed(2)} s`;
  }
  function setPlaying(on) {
    preview.play(on);
    playButton.textContent = on ? "❚❚" : "▶";
    playButton.setAttribute("aria-label", on ? "Pause" : "Play");
  }
  playButton.addEventListener("click", () => setPlaying(!preview.playing));
  // The preview's own measure: frames per second over the last 30 draws, and the last edit's latency.
  setInterval(() => {
    const times = stats.frameTimes.slice(-31);
    const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
    const fps = preview.playing && gaps.length > 10 ? `${(1000 / gaps[gaps.length >> 1]).toFixed(0)} fps` : "";
    const last = stats.editLatencies[stats.editLatencies.length - 1];
    $("meter").textContent = [fps, last ? `edit → pixels ${last.toFixed(0)} ms` : ""].filter(Boolean).join(" · ");
  }, 1000);
  scrubber.addEventListener("input", () => { setPlaying(false); preview.seek(Number(scrubber.value)); });
  setPlaying(preview.playing);

  window.studio = {
    get designId() { return designId; },
    get viewId() { return viewId; },
    get lastFrameURL() { return preview.lastFrameURL; },
    get busy() { return posting || pendingSince !== null; },
    get baseline() { return FG.model.clone(baseline); },
    get edited() { return edited(); },
    stats, history, preview, preset, show, replace, setBaseline, undo, redo, register,
    edit: (key, value) => edit(key, value, null),
    load: (value) => { show(value); setBaseline(value); },
    play: () => setPlaying(true), pause: () => setPlaying(false), seek: (k) => preview.seek(k),
    onDesign: (listener) => listeners.push(listener),
    showProblem: FG.problems.showProblem, slotFor: FG.problems.slotFor, status,
    /** Sets how the preview shows a design (layers.js) and shows the current one so. */
    setView(view) { viewOf = view; viewId = null; send(performance.now()); },
    viewOf: (value) => viewOf(value),
    /** Builds the controls; `extra` holds elements for their sections. */
    build(extra) {
      controls = FG.controls.build($("controls"), edit, extra);
      for (const control of controls) control.set(state[control.key]);
    },
    /** The first design: shown, the start of the history, and the baseline. */
    start(value) {
      started = true;
      state = FG.model.complete(value);
      for (const control of controls) control.set(state[control.key]);
      history.reset(preset());
      setBaseline(preset());
      send(performance.now());
    },
  };
})();
