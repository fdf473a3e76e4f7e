// Two ways of looking: hold-to-compare shows the design as it was loaded or last saved while
// the button (or the \ key) is held, at the same instant; full screen shows the design filling
// the window, its frames rendered at the window's size with the library's `keepingLook`, as
// a full-bleed background on this screen would show it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const holdButton = $("compare-hold"), badge = $("compare-badge");
  let holding = 0; // which hold is current; a release or a newer hold ends an older one

  async function hold() {
    const mine = ++holding;
    holdButton.setAttribute("aria-pressed", "true");
    badge.hidden = false;
    try {
      const { id } = await studio.register(studio.viewOf(studio.baseline));
      if (mine === holding) studio.preview.compareWith(id);
    } catch (error) {
      if (mine === holding) badge.textContent = `Cannot show the saved design: ${error.message}`;
    }
  }

  function release() {
    if (holdButton.getAttribute("aria-pressed") !== "true") return;
    holding += 1;
    holdButton.setAttribute("aria-pressed", "false");
    badge.hidden = true;
    badge.textContent = "Before: as loaded or last saved";
    studio.preview.compareWith(null);
  }

  holdButton.setAttribute("aria-pressed", "false");
  holdButton.addEventListener("pointerdown", (e) => { if (e.button === 0) { e.preventDefault(); hold(); } });
  for (const type of ["pointerup", "pointerleave", "pointercancel", "blur"]) holdButton.addEventListener(type, release);
  holdButton.addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); hold(); }
  });
  holdButton.addEventListener("keyup", (e) => { if (e.key === " " || e.key === "Enter") release(); });
  holdButton.addEventListener("click", (e) => e.preventDefault());

  const typing = (target) => target.closest && target.closest("input, textarea, select, [contenteditable]");
  document.addEventListener("keydown", (e) => {
    if (e.key === "\\" && !e.repeat && !typing(e.target) && !e.ctrlKey && !e.metaKey) hold();
  });
  document.addEventListener("keyup", (e) => { if (e.key === "\\") release(); });

  // ---- full screen ---------------------------------------------------------------------------

  const enterButton = $("fullscreen"), exitButton = $("fullscreen-exit");

  /** The window's size in device pixels, within the service's largest frame (3840x2160). */
  function windowSize() {
    const scale = window.devicePixelRatio || 1;
    let [w, h] = [Math.round(innerWidth * scale), Math.round(innerHeight * scale)];
    const over = Math.sqrt((w * h) / (3840 * 2160));
    if (over > 1) [w, h] = [Math.floor(w / over), Math.floor(h / over)];
    return [Math.max(1, w), Math.max(1, h)];
  }

  function enter() {
    document.body.classList.add("full");
    exitButton.hidden = false;
    studio.preview.setExact(windowSize());
    document.documentElement.requestFullscreen?.().catch(() => { /* the page fills the window anyway */ });
    exitButton.focus();
  }

  function leave() {
    if (!document.body.classList.contains("full")) return;
    document.body.classList.remove("full");
    exitButton.hidden = true;
    studio.preview.setExact(null);
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    enterButton.focus();
  }

  enterButton.addEventListener("click", enter);
  exitButton.addEventListener("click", leave);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") leave(); });
  document.addEventListener("fullscreenchange", () => { if (!document.fullscreenElement) leave(); });
  addEventListener("resize", () => {
    if (document.body.classList.contains("full")) studio.preview.setExact(windowSize());
  });

  Object.assign(window.studio, { hold, release, enterFullScreen: enter, leaveFullScreen: leave });
})();
