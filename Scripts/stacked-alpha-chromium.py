#!/usr/bin/env python3
"""Measures the stacked-alpha player (Web/fluidgradient-player.js) in headless Chromium.

Renders a transparent loop with `--alpha stacked`, as VP9 .webm with alpha and as 16-bit
PNGs; prints both files' bytes and the largest alpha error of every frame of each,
decoded by ffmpeg (the stacked one with bilinear chroma, as browsers upsample, and
recombined as the player does). Then it serves the files over HTTP on 127.0.0.1 (with
Range requests, or without: --no-range), lets the player draw chosen frames of the
paused video with each renderer, reads the canvas back, and prints the largest and mean
error of the alpha and of the premultiplied colour against the PNGs, in 8-bit levels, by
row band. It also checks that the player found the layout from the file's comment tag
and, with reduced motion emulated, shows the first frame without playing.

Needs Debian's chromium and chromium-driver, Python's selenium and numpy, and a built
fluidgradient (FLUIDGRADIENT, default .build/release/fluidgradient).

  Scripts/stacked-alpha-chromium.py --size 480x270 --point-scale 0.25 --duration 2
"""
import argparse
import base64
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading

import numpy as np
from selenium import webdriver

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PAGE = """<!doctype html><meta charset="utf-8">
<style>body { margin: 0; } #box { position: relative; width: %(w)dpx; height: %(h)dpx; }</style>
<div id="box">
  <video id="v" src="s.mp4" muted playsinline preload="auto" %(autoplay)s></video><canvas id="c"></canvas>
</div>
<script src="fluidgradient-player.js"></script>
<script>
  window.player = FluidGradientPlayer.attach(document.getElementById('v'), document.getElementById('c'),
    { renderer: '%(renderer)s', autoplay: %(autoplayOption)s });
  window.result = null;
  player.ready.then(function (r) { window.result = r; }, function (e) { window.result = { error: String(e) }; });
</script>
"""

# Seeks the paused video, waits until the frame is presented, draws, and returns the
# canvas's pixels as base64: premultiplied from WebGL (readPixels, rows bottom-up),
# straight from canvas 2D (getImageData).
GRAB = """
const [time, done] = arguments;
const video = document.getElementById('v'), canvas = document.getElementById('c');
video.pause();
function grab() {
  player.draw();
  let pixels;
  if (window.result.renderer === 'webgl') {
    const gl = canvas.getContext('webgl');
    pixels = new Uint8Array(canvas.width * canvas.height * 4);
    gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  } else {
    pixels = new Uint8Array(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data.buffer);
  }
  let text = '';
  for (let i = 0; i < pixels.length; i += 32768) text += String.fromCharCode.apply(null, pixels.subarray(i, i + 32768));
  done(btoa(text));
}
video.addEventListener('seeked', function () { setTimeout(grab, 50); }, { once: true });
video.currentTime = time;
"""


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with single-range Range support, as production servers do."""

    ranges = True

    def log_message(self, *args):
        pass

    def send_head(self):
        header = self.headers.get('Range')
        path = self.translate_path(self.path)
        if not (self.ranges and header and header.startswith('bytes=') and os.path.isfile(path)):
            return super().send_head()
        size = os.path.getsize(path)
        first, _, last = header[6:].partition('-')
        first, last = int(first), min(int(last or size - 1), size - 1)
        handle = open(path, 'rb')
        handle.seek(first)
        self.send_response(206)
        self.send_header('Content-Type', self.guess_type(path))
        self.send_header('Content-Range', 'bytes %d-%d/%d' % (first, last, size))
        self.send_header('Content-Length', str(last - first + 1))
        self.send_header('Accept-Ranges', 'bytes')
        self.end_headers()
        self.range_length = last - first + 1
        return handle

    def copyfile(self, source, destination):
        length = getattr(self, 'range_length', None)
        if length is None:
            return super().copyfile(source, destination)
        destination.write(source.read(length))


def render(binary, directory, arguments):
    subprocess.run([binary, 'render', *arguments, '--alpha', 'stacked', '-o', os.path.join(directory, 's.mp4')],
                   check=True)
    subprocess.run([binary, 'render', *arguments, '-o', os.path.join(directory, 's.webm')], check=True)
    subprocess.run([binary, 'render', *arguments, '--depth', '16', '-o', os.path.join(directory, '%03d.png')],
                   check=True)
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', os.path.join(directory, '%03d.png'), '-f', 'rawvideo',
                          '-pix_fmt', 'rgba64le', '-'], capture_output=True, check=True).stdout
    return np.frombuffer(raw, '<u2').astype(float) / 65535


def decode(path, pixel_format, decoder=(), filters=()):
    """Every frame of a video, decoded by ffmpeg, as floats."""
    raw = subprocess.run(['ffmpeg', '-v', 'error', *decoder, '-i', path, *filters, '-f', 'rawvideo', '-pix_fmt',
                          pixel_format, '-'], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).astype(float)


def decoded_alpha_errors(directory, frames):
    """The largest and mean alpha error, in levels, of the stacked .mp4 (bilinear chroma,
    as browsers upsample, recombined as the player does) and of the .webm over all frames."""
    count, height, width = frames.shape[:3]
    chroma = 'scale=in_color_matrix=bt709:in_range=tv:flags=bilinear+accurate_rnd+full_chroma_int'
    grey = decode(os.path.join(directory, 's.mp4'), 'rgb24', filters=['-vf', chroma])
    grey = grey.reshape(count, 2 * height, width, 3)[:, height:]
    grey[:, 0] = grey[:, min(1, height - 1)]
    stacked = np.floor((grey @ np.array([2126, 7152, 722]) + 5000) / 10000)
    webm = decode(os.path.join(directory, 's.webm'), 'rgba', decoder=['-c:v', 'libvpx-vp9'])
    truth = frames[..., 3] * 255
    errors = [np.abs(stacked - truth), np.abs(webm.reshape(count, height, width, 4)[..., 3] - truth)]
    return [(e.max(), e.mean()) for e in errors]


def browser(reduced_motion=False):
    options = webdriver.ChromeOptions()
    for flag in ['--headless=new', '--no-sandbox', '--autoplay-policy=no-user-gesture-required',
                 '--disable-gpu-driver-bug-workarounds', '--force-color-profile=srgb']:
        options.add_argument(flag)
    options.binary_location = '/usr/bin/chromium'
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path='/usr/bin/chromedriver'))
    if reduced_motion:
        driver.execute_cdp_cmd('Emulation.setEmulatedMedia',
                               {'features': [{'name': 'prefers-reduced-motion', 'value': 'reduce'}]})
    return driver


def wait_ready(driver):
    for _ in range(200):
        result = driver.execute_script('return window.result')
        if result:
            return result
        driver.implicitly_wait(0)
        threading.Event().wait(0.05)
    raise SystemExit('the player never drew its first frame')


def measure(driver, url, frames, width, height, fps, renderer, indices):
    driver.get(url)
    result = wait_ready(driver)
    if result.get('error') or result['layout'] != 'stacked' or result['renderer'] != renderer:
        raise SystemExit('%s: unexpected %r' % (renderer, result))
    driver.set_script_timeout(30)
    alpha_errors, colour_errors = [], []
    for index in indices:
        data = base64.b64decode(driver.execute_async_script(GRAB, (index + 0.5) / fps))
        pixels = np.frombuffer(data, np.uint8).reshape(height, width, 4).astype(float)
        if renderer == 'webgl':
            pixels = pixels[::-1]
            premultiplied = pixels[..., :3]
        else:
            premultiplied = np.round(pixels[..., :3] * pixels[..., 3:] / 255)
        frame = frames[index]
        alpha_errors.append(np.abs(pixels[..., 3] - frame[..., 3] * 255))
        colour_errors.append(np.abs(premultiplied - frame[..., :3] * frame[..., 3:] * 255).max(axis=2))
    return np.stack(alpha_errors), np.stack(colour_errors)


def report(name, errors):
    rows = errors.shape[1]
    bands = [('row 0', slice(0, 1)), ('rows 1-3', slice(1, 4)), ('rows 4..H-5', slice(4, rows - 4)),
             ('rows H-4..H-2', slice(rows - 4, rows - 1)), ('row H-1', slice(rows - 1, rows))]
    text = ', '.join('%s %.0f' % (label, errors[:, band].max()) for label, band in bands)
    print('  %-7s largest %.0f, mean %.3f; by rows: %s' % (name, errors.max(), errors.mean(), text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--size', default='480x270')
    parser.add_argument('--point-scale', default='0.25')
    parser.add_argument('--duration', default='2')
    parser.add_argument('--fps', type=float, default=60)
    parser.add_argument('--preset', default='default')
    parser.add_argument('--frames', default='0,15,30,45,60,75,90,105,119')
    parser.add_argument('--no-range', action='store_true', help='serve without Range support')
    args = parser.parse_args()
    width, height = map(int, args.size.split('x'))
    binary = os.environ.get('FLUIDGRADIENT', os.path.join(ROOT, '.build/release/fluidgradient'))
    directory = tempfile.mkdtemp(prefix='stacked-alpha-')
    arguments = ['--preset', args.preset, '--background', 'transparent', '--size', args.size, '--point-scale',
                 args.point_scale, '--duration', args.duration, '--fps', str(args.fps), '--loop']
    frames = render(binary, directory, arguments).reshape(-1, height, width, 4)
    indices = [int(i) for i in args.frames.split(',') if int(i) < len(frames)]
    with open(os.path.join(ROOT, 'Web/fluidgradient-player.js'), 'rb') as source:
        player = source.read()
    with open(os.path.join(directory, 'fluidgradient-player.js'), 'wb') as target:
        target.write(player)
    pages = {'webgl': ('webgl', ''), '2d': ('2d', ''), 'motion': ('auto', 'autoplay')}
    for name, (renderer, autoplay) in pages.items():
        with open(os.path.join(directory, name + '.html'), 'w') as page:
            page.write(PAGE % {'w': width, 'h': height, 'renderer': renderer, 'autoplay': autoplay,
                               'autoplayOption': 'true' if autoplay else 'false'})
    RangeHandler.ranges = not args.no_range
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(RangeHandler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = 'http://127.0.0.1:%d/' % server.server_address[1]
    sizes = [os.path.getsize(os.path.join(directory, name)) for name in ['s.mp4', 's.webm']]
    (stacked, stacked_mean), (webm, webm_mean) = decoded_alpha_errors(directory, frames)
    print('%s, %d frames: stacked .mp4 %d bytes, VP9 .webm %d bytes' % (args.size, len(frames), *sizes))
    print('decoded by ffmpeg, alpha error: stacked largest %.0f mean %.3f, webm largest %.0f mean %.3f'
          % (stacked, stacked_mean, webm, webm_mean))
    print('Chromium, frames %s, Range %s:' % (indices, 'off' if args.no_range else 'on'))
    driver = browser()
    try:
        for renderer in ['webgl', '2d']:
            alpha, colour = measure(driver, base + renderer + '.html', frames, width, height, args.fps, renderer,
                                    indices)
            print(renderer + ':')
            report('alpha', alpha)
            report('colour', colour)
    finally:
        driver.quit()
    driver = browser(reduced_motion=True)
    try:
        driver.get(base + 'motion.html')
        result = wait_ready(driver)
        threading.Event().wait(1)
        state = driver.execute_script('var v = document.getElementById("v"); return [v.paused, v.currentTime];')
        print('reduced motion: %s renderer, paused %s at %.3f s' % (result.get('renderer'), state[0], state[1]))
    finally:
        driver.quit()
    server.shutdown()


if __name__ == '__main__':
    sys.exit(main())
