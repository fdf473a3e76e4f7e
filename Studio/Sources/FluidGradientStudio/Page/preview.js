// The live preview: the engine's own frames, fetched from the render service and drawn on a
// canvas, at 30 frames a second on a 1/30 s grid looping over the design's duration. A few
// frames ahead are fetched at once; a frame is drawn when it is decoded and its turn has come,
// so a slow service slows the preview down rather than skipping frames. A new design starts
// at the instant on screen, drawn as soon as it arrives. The preview may show another design
// for a moment (hold-to-compare) and may fill the window (full screen), where its frames are
// rendered at the window's size with the library's `keepingLook`.
"use strict";
window.FG = window.FG || {};

FG.Preview = class {
  static FPS = 30;
  static BOX = [640, 360];

  /**
   * @param {HTMLCanvasElement} canvas where frames are drawn.
   * @param {object} stats `{framesDrawn, frameTimes, editLatencies}`, filled as frames are drawn.
   * @param {object} hooks `onTime(t, k, n)` after each draw, `onMissing()` when the service no
   *   longer knows the design (it was evicted: post it again).
   */
  constructor(canvas, stats, hooks) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.stats = stats;
    this.hooks = hooks;
    this.design = null;
    this.k = 0;
    this.drawn = -1; // the index on the canvas for the current design, -1 when none yet
    this.playing = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.maxInFlight = 4;
    this.ahead = 8;
    this.ready = new Map();
    this.inFlight = new Map();
    this.due = 0;
    this.lastFrameURL = null;
    this.holding = false;
    this.current = null; // { id, preset } of the design shown
    this.comparing = null; // the id shown instead while hold-to-compare is held
    this.exact = null; // [W, H] of the frames while full screen
    requestAnimationFrame((now) => this.tick(now));
  }

  /** The preview's size for a design of `width` x `height`: fitted into 640x360, aspect kept. */
  static fit(width, height) {
    const [bw, bh] = FG.Preview.BOX;
    const scale = Math.min(bw / width, bh / height);
    return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  }

  /**
   * Shows another design from the instant on screen.
   * @param {string} id the design's id.
   * @param {object} preset its preset (size and duration are read).
   * @param {number|null} editStart performance.now() of the input that led to it, for the latency.
   */
  show(id, preset, editStart) {
    this.current = { id, preset };
    this.apply(editStart);
  }

  /** Shows the design `id` (of the same size and duration) instead while on; null returns. */
  compareWith(id) {
    if (this.comparing === id) return;
    this.comparing = id;
    if (this.current) this.apply(null);
  }

  /** Renders frames at `size` ([W, H], the window's) while full screen; null for the usual box. */
  setExact(size) {
    this.exact = size;
    if (this.current) this.apply(null);
  }

  apply(editStart) {
    const preset = this.current.preset;
    const [w, h] = FG.model.parseSize(preset.size) || [1920, 1080];
    const [pw, ph] = this.exact || FG.Preview.fit(w, h);
    const count = Math.max(1, Math.round(Number(preset.duration) * FG.Preview.FPS) || 1);
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    for (const bitmap of this.ready.values()) bitmap.close();
    this.ready.clear();
    const id = this.comparing || this.current.id;
    this.design = { id, width: pw, height: ph, count, editStart: this.comparing ? null : editStart };
    this.k = this.k % count;
    this.drawn = -1;
    this.canvas.parentElement.style.setProperty("--aspect", String(w / h));
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    this.fill();
  }

  /** The URL of frame `k` of the current design. */
  url(k) {
    const d = this.design;
    return `/v1/designs/${d.id}/frames/${d.width}x${d.height}/${FG.Preview.time(k)}.png`;
  }

  /** Frame k's instant in seconds, as the URL writes it. */
  static time(k) { return String(k / FG.Preview.FPS); }

  /**
   * While on, no new frame is fetched (an edit is being sent; its design's frames come next).
   * Fetching resumes after the caller's current task, so a design shown right after the
   * release is the one fetched.
   */
  hold(on) {
    this.holding = on;
    if (!on) queueMicrotask(() => this.fill());
  }

  play(on) {
    this.playing = on;
    this.due = performance.now();
    this.fill();
  }

  /** Shows frame `k` (wrapped into the loop) and holds it while paused. */
  seek(k) {
    if (!this.design) return;
    this.k = ((Math.round(k) % this.design.count) + this.design.count) % this.design.count;
    this.drawn = -1;
    this.fill();
  }

  /** The frames wanted next, in order: the one due on screen, then those after it. */
  wanted() {
    const d = this.design;
    const first = this.drawn === this.k ? this.k + 1 : this.k;
    const n = this.playing ? this.ahead : (this.drawn === this.k ? 0 : 1);
    const list = [];
    for (let i = 0; i < n && i < d.count; i += 1) list.push((first + i) % d.count);
    return list;
  }

  /** Starts fetches for wanted frames, a few at a time; drops decoded frames no longer wanted. */
  fill() {
    if (!this.design) return;
    const wanted = this.wanted();
    for (const [k, bitmap] of this.ready) {
      if (!wanted.includes(k) && k !== this.k) { bitmap.close(); this.ready.delete(k); }
    }
    // A new design's first frame is the edit's answer: it gets the service to itself.
    const limit = this.holding ? 0 : this.drawn < 0 ? 1 : this.maxInFlight;
    for (const k of wanted) {
      if (this.inFlight.size >= limit) break;
      if (!this.ready.has(k) && !this.inFlight.has(k)) this.fetchFrame(this.design, k);
    }
  }

  async fetchFrame(design, k) {
    const controller = new AbortController();
    this.inFlight.set(k, controller);
    const url = this.url(k);
    try {
      const response = await FG.api.send("GET", url, { signal: controller.signal });
      if (response.status === 404 && this.design === design) this.hooks.onMissing();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      const bitmap = await createImageBitmap(blob, { premultiplyAlpha: "none", colorSpaceConversion: "none" });
      if (this.design !== design) { bitmap.close(); return; }
      bitmap.url = url;
      this.ready.set(k, bitmap);
    } catch (error) {
      if (error.name !== "AbortError" && this.design === design) await new Promise((r) => setTimeout(r, 250));
    } finally {
      if (this.inFlight.get(k) === controller) this.inFlight.delete(k);
    }
    if (this.design === design) this.fill();
  }

  tick(now) {
    requestAnimationFrame((t) => this.tick(t));
    if (!this.design) return;
    if (this.drawn !== this.k) {
      if (this.ready.has(this.k)) this.draw(this.k, now);
    } else if (this.playing && now >= this.due - 2) {
      const next = (this.k + 1) % this.design.count;
      if (this.ready.has(next)) {
        this.k = next;
        this.draw(next, now);
      }
    }
  }

  draw(k, now) {
    const bitmap = this.ready.get(k);
    this.context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.context.drawImage(bitmap, 0, 0);
    this.ready.delete(k);
    bitmap.close();
    const drawnAt = performance.now();
    this.drawn = k;
    // Keep the 30 fps grid; a frame more than half an interval late starts a new grid.
    const interval = 1000 / FG.Preview.FPS;
    this.due = now - this.due > interval / 2 ? now + interval : this.due + interval;
    this.lastFrameURL = bitmap.url;
    this.stats.framesDrawn += 1;
    this.stats.frameTimes.push(drawnAt);
    if (this.stats.frameTimes.length > 20000) this.stats.frameTimes.splice(0, 10000);
    if (this.design.editStart !== null && this.design.editStart !== undefined) {
      this.stats.editLatencies.push(drawnAt - this.design.editStart);
      this.design.editStart = null;
    }
    this.hooks.onTime(k / FG.Preview.FPS, k, this.design.count);
    this.fill();
  }
};
