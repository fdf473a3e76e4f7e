"""What a viewer sees of a bundle in one engine, measured against two references.

- `show_frame(engine, ...)` pauses a source at its natural size in the viewport's corner,
  seeking from another frame first, and captures it.
- `identify(...)` says which decoded frame a capture shows, by matching it against the
  engine's model of every candidate frame: the instant is never assumed (WebKit lands a
  frame early on some WebM seeks), and a capture that still shows the frame from before
  the seek is reported as stale.
- `channel_errors(...)` gives PSNR and the signed mean error per channel, in levels.
- `poster_switch(...)` measures the bundle page's poster against the video's first frame
  in the same engine, and the size of each step of the page's cross-fade.

The models of each engine's conversion are in conversion.py: libyuv's integer conversion
for Chromium's and Firefox's software paths, the standard's for WebKitGTK and the GPU
paths. Which one an engine uses, and how close it gets, was measured (docs/web.md).
"""

import time

import numpy as np

import conversion

# Each engine's conversion model (conversion.MODELS), for 8-bit and 10-bit sources. Chromium
# with SwiftShader's GPU compositing converts 8-bit video in a shader, by the standard, but
# still hands 10-bit video to libyuv (Scripts/encoding-choice.py). Firefox's window is
# closest to libyuv's, but not exact: within 0.38 level on graphite, 0.85 on neon, whose
# saturated colours its compositor moves further.
MODELS = {"chromium": ("libyuv", "libyuv"), "firefox": ("libyuv", "libyuv"), "chromium-gpu": ("exact", "libyuv"),
          "firefox-window": ("libyuv", "libyuv"), "webkit": ("gstreamer", "gstreamer")}
# The model's bar, mean absolute error in levels: 0.6 where the model is exact or nearly so
# (measured 0 to 0.43), 1.0 for Firefox's window (measured 0.85).
MODEL_MEAN = {"firefox-window": 1.0}


def model_mean(name):
    return MODEL_MEAN.get(name, 0.6)


def model(name, bits):
    """The model of engine `name`'s conversion of a `bits`-bit source."""
    return MODELS[name][0 if bits == 8 else 1]
# The page's cross-fade (BundlePage.posterFade) in 60 Hz frames.
FADE_FRAMES = 36


def place(engine, file, mime, width, height):
    """Replaces the page with one muted, paused video of `file` at width x height CSS pixels
    in the top-left corner, and waits until it can show a frame."""
    state = engine.run("""
        document.documentElement.style.background = '#000';
        document.body.style.margin = '0';
        document.body.innerHTML = '';
        const video = document.createElement('video');
        video.muted = true; video.loop = true; video.playsInline = true; video.preload = 'auto';
        video.style.cssText = 'position:fixed;left:0;top:0;width:' + arguments[2] + 'px;height:' + arguments[3] +
            'px;object-fit:fill';
        const source = document.createElement('source');
        source.src = arguments[0]; source.type = arguments[1];
        video.append(source); document.body.append(video);
        return await new Promise(done => {
          const timer = setTimeout(() => done('timeout ' + video.readyState), 20000);
          video.onerror = () => { clearTimeout(timer); done('error ' + (video.error && video.error.code)); };
          source.onerror = () => { clearTimeout(timer); done('error source'); };
          video.onloadeddata = () => { clearTimeout(timer); done('ready'); };
        });""", file, mime, width, height)
    return state


def seek(engine, seconds):
    """Pauses the page's video at `seconds` and waits for the frame to be painted."""
    result = engine.run("""
        const video = document.querySelector('video');
        video.pause();
        return await new Promise(done => {
          const timer = setTimeout(() => done('timeout'), 20000);
          video.addEventListener('seeked', () => {
            clearTimeout(timer);
            requestAnimationFrame(() => requestAnimationFrame(() => done('seeked')));
          }, { once: true });
          video.currentTime = arguments[0];
        });""", seconds)
    time.sleep(0.15)
    return result


def capture(engine, width, height):
    return engine.screenshot()[:height, :width]


class Decoded:
    """A source's decoded frames and engine `name`'s model of each, computed when asked."""

    def __init__(self, path, name, matrix=None):
        self.planes = conversion.decode(path)
        self.model, self.matrix = model(name, self.planes.bits), matrix
        self.cache = {}

    def __len__(self):
        return len(self.planes)

    def rgb(self, index):
        index %= len(self.planes)
        if index not in self.cache:
            self.cache[index] = conversion.MODELS[self.model](self.planes, index, matrix=self.matrix)
        return self.cache[index]


def mean_abs(a, b):
    return float(np.mean(np.abs(a - b)))


def identify(shot, decoded, target, previous, spread=3):
    """(index, stale): the decoded frame within `spread` of `target` (or `previous`, the
    frame shown before the seek) that `shot` matches best, and whether that is `previous`."""
    candidates = [target + offset for offset in range(-spread, spread + 1)]
    if previous is not None and previous % len(decoded) not in [c % len(decoded) for c in candidates]:
        candidates.append(previous)
    scores = {index: mean_abs(shot, decoded.rgb(index)) for index in candidates}
    best = min(scores, key=scores.get)
    return best, previous is not None and best == previous


def channel_errors(actual, expected):
    """(PSNR in dB, signed mean error per channel R, G, B, mean absolute error), in levels."""
    difference = actual - expected
    squared = float(np.mean((difference / 255.0) ** 2))
    psnr = float("inf") if squared == 0 else 10 * np.log10(1 / squared)
    return psnr, [float(m) for m in difference.reshape(-1, 3).mean(axis=0)], float(np.mean(np.abs(difference)))


def block_means(image, size=40):
    """Mean of each size x size block per channel."""
    height, width = image.shape[0] // size * size, image.shape[1] // size * size
    blocks = image[:height, :width].reshape(height // size, size, width // size, size, 3)
    return blocks.mean(axis=(1, 3))


def shown_frame(engine, file, mime, size, fps, target, previous, decoded, attempts=3):
    """Seeks from `previous` to `target`, captures, and identifies the frame; a stale
    capture is taken again up to `attempts` times. Returns (shot, index, stale, before)
    where `before` is the capture of `previous` (the stale control)."""
    seek(engine, (previous + 0.5) / fps)
    before = capture(engine, *size)
    for _ in range(attempts):
        seek(engine, (target + 0.5) / fps)
        shot = capture(engine, *size)
        index, stale = identify(shot, decoded, target, previous)
        if not stale:
            return shot, index, stale, before
        time.sleep(0.5)
        shot = capture(engine, *size)
        index, stale = identify(shot, decoded, target, previous)
        if not stale:
            return shot, index, stale, before
    return shot, index, stale, before


def poster_switch(engine, url, width, height, fallback=False):
    """The bundle page at `url`, paused on the video's first frame: the poster as shown,
    the video as shown, and the page half-way through its cross-fade. With `fallback`, the
    `<picture>`'s sources are removed first, so that the fallback (poster.jpg) shows, as in
    a browser without AVIF and WebP. Returns a dict of the three captures, the poster's
    currentSrc and the fade's duration."""
    engine.open(url)
    if fallback:
        engine.run("""
            const img = document.querySelector('.fluidgradient img');
            for (const source of document.querySelectorAll('.fluidgradient > picture > source')) source.remove();
            img.src = img.getAttribute('src');
            return await new Promise(done => { if (img.complete) done(1); else img.onload = () => done(1); });""")
    ready = engine.run("""
        const box = document.querySelector('.fluidgradient');
        const video = box.querySelector('video');
        const img = box.querySelector('img');
        return await new Promise(done => {
          const timer = setTimeout(() => done('timeout ' + video.readyState), 20000);
          const check = () => {
            if (box.classList.contains('playing') && img.complete && img.naturalWidth > 0) {
              clearTimeout(timer);
              const fade = getComputedStyle(box.querySelector('picture')).transitionDuration;
              done([img.currentSrc.split('/').pop(), fade]);
            } else setTimeout(check, 50);
          };
          check();
        });""")
    if not isinstance(ready, list):
        raise AssertionError(f"the page never started its cross-fade: {ready}")
    engine.run("""
        const video = document.querySelector('.fluidgradient > video');
        video.pause();
        return await new Promise(done => {
          video.addEventListener('seeked', () => requestAnimationFrame(() => requestAnimationFrame(() => done(1))),
                                 { once: true });
          video.currentTime = 0;
        });""")
    shots = {}
    for name, opacity in [("poster", "1"), ("video", "0"), ("half", "0.5")]:
        engine.run("""
            const picture = document.querySelector('.fluidgradient > picture');
            picture.style.transition = 'none';
            picture.style.opacity = arguments[0];
            return await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(1))));""",
                   opacity)
        time.sleep(0.3)
        shots[name] = engine.screenshot()[:height, :width]
    return {"shots": shots, "poster": ready[0], "transition": ready[1]}
