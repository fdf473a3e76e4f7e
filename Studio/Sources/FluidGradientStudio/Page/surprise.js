// Surprise me: a whole design drawn from a seed with SplitMix64 (the engine's generator,
// DESIGN section 9): a palette around one hue in OKLCH (analogous, complementary, triadic or
// split), highlights, a dark or light background (a colour or a gradient), the blobs' ranges,
// speed, blur and the engine's own seed. The same seed always draws the same design; it is
// one edit, undone as any other. The design keeps its size, frame rate and length.
"use strict";

(() => {
  const field = document.getElementById("surprise-seed");
  const MASK = (1n << 64n) - 1n;

  /** SplitMix64 from `seed`; `next()` is a double in [0, 1) from the top 53 bits. */
  function generator(seed) {
    let state = BigInt.asUintN(64, BigInt(seed));
    return () => {
      state = (state + 0x9E3779B97F4A7C15n) & MASK;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
      z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
      z ^= z >> 31n;
      return Number(z >> 11n) / 2 ** 53;
    };
  }

  /** OKLCH (L 0...1, C, hue in degrees) as `#RRGGBB`, chroma reduced until it is inside sRGB. */
  function oklch(l, c, h) {
    for (let chroma = c; chroma >= 0; chroma -= 0.005) {
      const a = chroma * Math.cos((h * Math.PI) / 180), b = chroma * Math.sin((h * Math.PI) / 180);
      const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
      const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
      const s_ = (l - 0.0894841775 * a - 1.2914855480 * b) ** 3;
      const linear = [4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
        -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
        -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_];
      if (linear.every((v) => v >= -1e-4 && v <= 1 + 1e-4)) {
        const encode = (v) => { v = Math.min(1, Math.max(0, v)); return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055; };
        return FG.model.hex([...linear.map((v) => encode(v) * 255), 255]);
      }
    }
    return FG.model.hex([l * 255, l * 255, l * 255, 255]);
  }

  const round = (v, digits = 2) => Number(v.toFixed(digits));

  /**
   * The design drawn from `seed`, on top of `base` (whose size, fps, duration and point scale it keeps).
   * @param {number} seed a whole number 0...2^53.
   */
  function draw(seed, base) {
    const next = generator(seed);
    const between = (lo, hi) => lo + (hi - lo) * next();
    const pick = (list) => list[Math.floor(next() * list.length)];
    const hue = between(0, 360);
    const offsets = pick([[0, 25, -25, 50], [0, 180, 20, 200], [0, 120, 240, 30], [0, 150, 210, 20]]);
    const dark = next() < 0.65;
    const count = 3 + Math.floor(next() * 3);
    const colors = Array.from({ length: count }, (_, i) => oklch(dark ? between(0.5, 0.8) : between(0.6, 0.88),
      between(0.09, 0.2), (hue + offsets[i % offsets.length] + between(-12, 12) + 360) % 360));
    const highlights = Array.from({ length: Math.floor(next() * 3) }, () =>
      oklch(between(0.88, 0.96), between(0.03, 0.09), (hue + between(-60, 60) + 360) % 360));
    const ground = (l) => oklch(l, between(0.01, 0.05), (hue + between(-30, 30) + 360) % 360);
    const groundL = () => (dark ? between(0.1, 0.24) : between(0.9, 0.97));
    const background = next() < 0.35
      ? { type: "linear", angle: Math.round(between(0, 24)) * 15,
        stops: [{ location: 0, color: ground(groundL()) }, { location: 1, color: ground(groundL()) }] }
      : ground(groundL());
    const sizeMin = between(0.1, 0.3), aspectMin = between(0.4, 0.9), opacityMin = between(0.4, 0.75);
    return Object.assign(FG.model.clone(base), {
      name: `surprise-${seed}`, description: `Drawn by Surprise me from seed ${seed}`,
      colors, highlights, background,
      speed: round(between(0.3, 1.2)), blur: round(between(0.6, 0.85)),
      seed: Math.floor(next() * 2 ** 32),
      blobSize: { min: round(sizeMin), max: round(sizeMin + between(0.3, 0.6)) },
      blobAspect: { min: round(aspectMin), max: round(aspectMin + between(0.5, 1.0)) },
      opacity: { min: round(opacityMin), max: round(Math.min(1, opacityMin + between(0.2, 0.5))) },
      retargetInterval: { min: 0.8, max: 1.2 }, loop: true, edges: "bleed",
      blobs: undefined, highlightBlobs: undefined,
    });
  }

  function freshSeed() {
    const word = new Uint32Array(1);
    crypto.getRandomValues(word);
    field.value = String(word[0]);
  }

  document.getElementById("surprise").addEventListener("click", () => {
    const seed = Number(field.value.trim());
    if (!Number.isSafeInteger(seed) || seed < 0) {
      studio.status("Surprise me: the seed must be a whole number from 0 to 9007199254740991.", true);
      return;
    }
    const base = studio.preset();
    studio.show(FG.model.ordered(JSON.parse(JSON.stringify(draw(seed, base)))));
    freshSeed();
  });
  freshSeed();

  Object.assign(window.studio, { surprise: draw });
})();
