/*
 * FluidGradient stacked-alpha player: one plain script, no dependencies.
 *
 * `fluidgradient render --alpha stacked -o loop.mp4` writes a video of W x 2P whose first
 * H rows are the colour premultiplied by alpha (the frame over black) and whose last H
 * rows are the alpha as grey; each half is padded to P rows (a multiple of the codecs'
 * blocks, so that none straddles the seam). Its container's `comment` tag reads
 * "fluidgradient-layout=stacked-alpha;height=H" (a file without the height is unpadded,
 * H = P). This script draws such a video on a canvas as premultiplied RGBA, so the page
 * shows through where the loop is transparent.
 *
 *   <div class="hero"><video src="loop.mp4" muted playsinline loop></video><canvas></canvas></div>
 *   <script src="fluidgradient-player.js"></script>
 *   <script>
 *     var hero = document.querySelector('.hero');
 *     FluidGradientPlayer.attach(hero.querySelector('video'), hero.querySelector('canvas'));
 *   </script>
 *
 * FluidGradientPlayer.attach(video, canvas, options) returns a player:
 *   player.ready    a Promise of { layout: 'stacked' | 'plain', renderer: 'webgl' | '2d',
 *                   width, height, colorSpace } once the first frame is drawn
 *                   (colorSpace: the canvas's, 'srgb' or 'display-p3')
 *   player.draw()   draws the video's current frame now
 *   player.detach() stops drawing and removes every listener it added
 * options (all optional):
 *   layout      'auto' (read the file's comment tag), 'stacked' or 'plain' (opaque video)
 *   renderer    'auto' (WebGL, else canvas 2D), 'webgl' or '2d'
 *   videoRange  'full' (default: browsers expand the video's limited range when they decode
 *               it) or 'limited' (a browser that hands over Y 16...235 unexpanded)
 *   colorSpace  'srgb' (default) or 'display-p3': the loop's colour space. With
 *               'display-p3' the canvas is a Display P3 one where the browser has such
 *               canvases (WebGL's drawingBufferColorSpace and unpackColorSpace, canvas
 *               2D's colorSpace), so the video's wider colours reach the screen
 *   autoplay    true (default) plays the video unless the user prefers reduced motion
 *   loop        true (default) loops the video
 *   grain       the bundle's grain (DESIGN section 12), laid on the unpremultiplied colour
 *               with the overlay blend, alpha unchanged: { tile: 'grain.png', sprite:
 *               'grain-sprite.png' or null, spriteCells: 128, cell: c (CSS pixels a cell),
 *               fps, width, height (the display size) }. The canvas is then the display size
 *               and the video is scaled up in the shader, bilinearly, so each canvas pixel
 *               gets its own cell. Animated grain takes the sprite's phase of the frame on
 *               screen, round(mediaTime × fps) mod 8; with reduced motion, the still tile.
 * FluidGradientPlayer.readLayout(url) reads the tag: a Promise of 'stacked' or 'plain'.
 * FluidGradientPlayer.readStackedHeight(url): a Promise of H, or null for a plain file.
 *
 * Without grain, the canvas keeps the video's own pixel grid (W x H), so the halves are
 * recombined pixel for pixel, and CSS scales it to cover its box at any size: where the page sets
 * none, the player gives the canvas width and height 100% and `object-fit: cover`. It
 * hides the video (1 px, transparent, still laid out) and mutes it.
 * Alpha is the BT.709 luma of the grey half's RGB: a grey pixel has no chroma, and
 * whatever chroma the codec adds cancels in these weights. In an unpadded file the top
 * row takes its alpha from the row below: the decoder's 4:2:0 upsampling blends the
 * colour half's last chroma row into the first grey row, and where that pushes a channel
 * past black or white, the clipped channel no longer cancels (up to 10 levels under
 * saturated colour); a padded file has rows of padding there instead. With
 * `prefers-reduced-motion: reduce` the first frame is shown and nothing plays. The video
 * must be same-origin (or served with CORS and `crossorigin`), since the canvas reads it.
 */
(function (global) {
  'use strict';

  var LAYOUT_COMMENT = 'fluidgradient-layout=stacked-alpha';
  /** The first read of a file, in which +faststart puts the moov box with the tag. */
  var HEAD_BYTES = 1 << 16;
  var LARGEST_MOOV = 1 << 26;

  /**
   * The bytes start...start+length-1 of url (fewer at the end of the file). A server
   * that ignores Range sends the whole file, which is read only as far as needed.
   */
  function readBytes(url, start, length) {
    var end = start + length - 1;
    return fetch(url, { headers: { Range: 'bytes=' + start + '-' + end } }).then(function (response) {
      if (!response.ok) throw new Error('HTTP ' + response.status + ' for ' + url);
      if (response.status === 206) return response.arrayBuffer().then(function (b) { return new Uint8Array(b); });
      var reader = response.body.getReader(), chunks = [], received = 0;
      function pump() {
        return reader.read().then(function (step) {
          if (!step.done) { chunks.push(step.value); received += step.value.length; }
          if (step.done || received > end) {
            reader.cancel();
            var all = new Uint8Array(received), at = 0;
            chunks.forEach(function (chunk) { all.set(chunk, at); at += chunk.length; });
            return all.subarray(start, Math.min(received, end + 1));
          }
          return pump();
        });
      }
      return pump();
    });
  }

  function fourCC(bytes, at) {
    return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
  }

  function uint32(bytes, at) {
    return ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
  }

  /** The boxes in bytes[from, to): { type, start (of the payload), end, headerStart }. */
  function boxes(bytes, from, to) {
    var found = [];
    for (var at = from; at + 8 <= to;) {
      var size = uint32(bytes, at), header = 8;
      if (size === 1) {
        if (at + 16 > to) break;
        size = uint32(bytes, at + 8) * 4294967296 + uint32(bytes, at + 12);
        header = 16;
      } else if (size === 0) {
        size = to - at;
      }
      if (size < header) break;
      found.push({ type: fourCC(bytes, at + 4), headerStart: at, start: at + header, end: at + size });
      at += size;
    }
    return found;
  }

  function child(bytes, box, type) {
    return boxes(bytes, box.start, Math.min(box.end, bytes.length)).filter(function (b) { return b.type === type; })[0];
  }

  /**
   * The global comment of an MP4's moov box: moov/udta/meta/ilst/©cmt/data, as the
   * mp4 muxer writes `-metadata comment=...` (meta is a full box there, with 4 bytes of
   * version and flags, but not in QuickTime files, which the hdlr that follows tells).
   */
  function commentOf(moov) {
    var root = { start: 0, end: moov.length };
    var udta = child(moov, root, 'udta');
    var meta = udta && child(moov, udta, 'meta');
    if (!meta) return null;
    if (fourCC(moov, meta.start + 4) !== 'hdlr') meta = { start: meta.start + 4, end: meta.end };
    var ilst = child(moov, meta, 'ilst');
    var comment = ilst && child(moov, ilst, '\u00a9cmt');
    var data = comment && child(moov, comment, 'data');
    if (!data || data.end > moov.length) return null;
    // After the data box's header: 4 bytes of type (1 is UTF-8) and 4 of locale.
    return new TextDecoder('utf-8').decode(moov.subarray(data.start + 8, data.end));
  }

  /** Finds the top-level moov box of url and reads it whole. */
  function readMoov(url) {
    return readBytes(url, 0, HEAD_BYTES).then(function (head) {
      function walk(offset, bytes, bytesStart, hops) {
        if (hops > 64) return null;
        var local = offset - bytesStart;
        if (local + 16 > bytes.length) {
          return readBytes(url, offset, 16).then(function (more) {
            return more.length < 8 ? null : walk(offset, more, offset, hops + 1);
          });
        }
        var box = boxes(bytes, local, local + 16)[0];
        if (!box) return null;
        var size = box.end - box.headerStart;
        if (box.type === 'moov') {
          if (size > LARGEST_MOOV) return null;
          if (local + size <= bytes.length) return bytes.subarray(box.start, local + size);
          return readBytes(url, offset, size).then(function (moov) { return moov.subarray(box.start - local); });
        }
        return walk(offset + size, bytes, bytesStart, hops + 1);
      }
      return walk(0, head, 0, 0);
    });
  }

  /**
   * H, the rows of each half's content, from a stacked-alpha tag (`;height=H`), 0 for a tag
   * without a height (an unpadded file: half the video), null for any other comment.
   */
  function stackedHeight(comment) {
    if (!comment || comment.indexOf(LAYOUT_COMMENT) !== 0) return null;
    var rest = comment.slice(LAYOUT_COMMENT.length);
    if (rest === '') return 0;
    var match = /^;height=([1-9][0-9]{0,5})$/.exec(rest);
    return match ? Number(match[1]) : null;
  }

  /** A Promise of url's stacked height (see stackedHeight), or null for a plain file. */
  function readStackedHeight(url) {
    return readMoov(url).then(function (moov) { return moov ? stackedHeight(commentOf(moov)) : null; },
      function () { return null; });
  }

  /** 'stacked' when url's comment tag marks the stacked-alpha layout, else 'plain'. */
  function readLayout(url) {
    return readStackedHeight(url).then(function (height) { return height === null ? 'plain' : 'stacked'; });
  }

  var VERTEX = 'attribute vec2 corner; void main() { gl_Position = vec4(corner, 0.0, 1.0); }';
  // Without grain, one output pixel per video pixel: texel centres, so nothing is filtered.
  // With grain, the output is the display size and the video is sampled bilinearly at each
  // output pixel's centre, kept inside its half, as a browser scales a video up.
  var FRAGMENT = [
    '#ifdef GL_FRAGMENT_PRECISION_HIGH', 'precision highp float;', '#else', 'precision mediump float;', '#endif',
    'uniform sampler2D frame;',
    'uniform vec2 size;', // the video's width and height (one half of a stacked video)
    'uniform vec2 outSize;', // the output's width and height
    'uniform float stacked;', // 1 for the stacked layout, 0 for a plain video
    'uniform float rows;', // the video's height
    'uniform float alphaStart;', // the video row of the alpha's first row
    'uniform float limited;', // 1 to expand Y 16...235 here
    'uniform sampler2D grain;', // the grain's tile or sprite, 8-bit values n
    'uniform float grainOn;', // 1 to lay the grain
    'uniform vec2 grainSize;', // the grain texture's width and height
    'uniform float grainCells;', // cells a phase repeats after: 256 (tile) or the sprite's
    'uniform float grainRow;', // the phase's first row in the texture
    'uniform float grainCell;', // c, output pixels a cell
    'vec3 texel(vec2 p) {', // p: a point in video pixels, rows of the whole texture
    '  vec3 v = texture2D(frame, vec2(p.x / size.x, p.y / rows)).rgb;',
    '  return limited > 0.5 ? (v * 255.0 - 16.0) / 219.0 : v;',
    '}',
    'void main() {',
    '  vec2 o = vec2(floor(gl_FragCoord.x), outSize.y - 1.0 - floor(gl_FragCoord.y));',
    '  vec2 p = (o + 0.5) * size / outSize;',
    '  p.y = clamp(p.y, 0.5, size.y - 0.5);',
    '  vec3 colour = clamp(texel(p), 0.0, 1.0);',
    '  float alpha = 1.0;',
    '  if (stacked > 0.5) {',
    '    float first = alphaStart > size.y - 0.5 ? min(1.5, size.y - 0.5) : 0.5;',
    '    vec2 q = vec2(p.x, alphaStart + max(p.y, first));',
    '    alpha = clamp(dot(texel(q), vec3(0.2126, 0.7152, 0.0722)), 0.0, 1.0);',
    '    colour = min(colour, vec3(alpha));',
    '  }',
    '  if (grainOn > 0.5 && alpha > 0.0) {',
    '    vec2 cell = mod(floor(o / grainCell), grainCells);',
    '    vec3 g = 2.0 * texture2D(grain, (cell + vec2(0.5, grainRow + 0.5)) / grainSize).rgb - 1.0;',
    '    vec3 straight = colour / alpha;', // C' = C + g·min(C, 1 − C): the overlay of N = (g + 1)/2
    '    colour = (straight + g * min(straight, 1.0 - straight)) * alpha;',
    '  }',
    '  gl_FragColor = vec4(colour, alpha);',
    '}'
  ].join('\n');

  function compile(gl, type, source) {
    var shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  }

  /** A WebGL renderer on canvas, or null where WebGL is unavailable. */
  function webGLRenderer(canvas, limited, grain, colorSpace) {
    var gl = canvas.getContext('webgl', { premultipliedAlpha: true, alpha: true, antialias: false, depth: false });
    if (!gl) return null;
    // The video is decoded into this space and the drawing buffer tagged with it.
    if (colorSpace === 'display-p3' && 'drawingBufferColorSpace' in gl) {
      gl.drawingBufferColorSpace = 'display-p3';
      if ('unpackColorSpace' in gl) gl.unpackColorSpace = 'display-p3';
    }
    var program = gl.createProgram();
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
    gl.useProgram(program);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
    var corner = gl.getAttribLocation(program, 'corner');
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
    gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    if (grain) {
      // Scaled up: filtered, as a browser scales a video.
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    }
    gl.uniform1i(gl.getUniformLocation(program, 'frame'), 0);
    gl.uniform1i(gl.getUniformLocation(program, 'grain'), 1);
    gl.uniform1f(gl.getUniformLocation(program, 'limited'), limited ? 1 : 0);
    var uniform = function (name) { return gl.getUniformLocation(program, name); };
    var size = uniform('size'), outSize = uniform('outSize'), stacked = uniform('stacked');
    var rows = uniform('rows'), alphaStart = uniform('alphaStart');
    var grainTextures = grain ? [grain.tile, grain.sprite].map(function (image) {
      if (!image) return null;
      var texture = gl.createTexture();
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.activeTexture(gl.TEXTURE0);
      return { texture: texture, width: image.width, height: image.height };
    }) : [];
    gl.uniform1f(uniform('grainOn'), grain ? 1 : 0);
    if (grain) gl.uniform1f(uniform('grainCell'), grain.cell);
    return {
      name: 'webgl',
      colorSpace: gl.drawingBufferColorSpace || 'srgb',
      /** Draws a frame at `output` (width, height): the video's size without grain. */
      draw: function (video, width, height, isStacked, output, phase) {
        gl.viewport(0, 0, output.width, output.height);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, video);
        gl.uniform2f(size, width, height);
        gl.uniform2f(outSize, output.width, output.height);
        gl.uniform1f(stacked, isStacked ? 1 : 0);
        gl.uniform1f(rows, video.videoHeight);
        gl.uniform1f(alphaStart, video.videoHeight - height);
        if (grain) {
          var layer = grainTextures[phase === null ? 0 : 1];
          gl.activeTexture(gl.TEXTURE1);
          gl.bindTexture(gl.TEXTURE_2D, layer.texture);
          gl.activeTexture(gl.TEXTURE0);
          gl.uniform2f(uniform('grainSize'), layer.width, layer.height);
          gl.uniform1f(uniform('grainCells'), phase === null ? 256 : grain.spriteCells);
          gl.uniform1f(uniform('grainRow'), phase === null ? 0 : phase * grain.spriteCells);
        }
        gl.drawArrays(gl.TRIANGLES, 0, 3);
      }
    };
  }

  /** An image's RGBA bytes, as drawn on a canvas. */
  function pixelsOf(image) {
    if (!image) return null;
    var board = document.createElement('canvas');
    board.width = image.width; board.height = image.height;
    var context = board.getContext('2d', { willReadFrequently: true });
    context.drawImage(image, 0, 0);
    return { data: context.getImageData(0, 0, image.width, image.height).data, width: image.width };
  }

  /**
   * The canvas-2D renderer: both halves read back (drawn at the output size, which the
   * browser scales), written unpremultiplied, with the grain laid on each pixel.
   */
  function canvas2DRenderer(canvas, limited, grain, colorSpace) {
    var space = { colorSpace: colorSpace === 'display-p3' ? 'display-p3' : 'srgb' };
    var context = canvas.getContext('2d', space);
    if (!context) return null;
    var source = document.createElement('canvas');
    var sourceContext = source.getContext('2d', { willReadFrequently: true, colorSpace: space.colorSpace });
    // A browser without Display P3 canvases ignores the option: then everything is sRGB.
    var actual = (context.getContextAttributes && context.getContextAttributes().colorSpace) || 'srgb';
    space = { colorSpace: actual };
    var expand = function (v) { return limited ? Math.min(255, Math.max(0, Math.round((v - 16) * 255 / 219))) : v; };
    var layers = grain ? [pixelsOf(grain.tile), pixelsOf(grain.sprite)] : [];
    return {
      name: '2d',
      colorSpace: actual,
      draw: function (video, videoWidth, videoHeight, isStacked, size, phase) {
        var width = size.width, height = size.height, rows = isStacked ? 2 * height : height;
        if (source.width !== width || source.height !== rows) { source.width = width; source.height = rows; }
        // Each half drawn from its own rows, the padding between them left out.
        var alphaTop = video.videoHeight - videoHeight;
        sourceContext.drawImage(video, 0, 0, videoWidth, videoHeight, 0, 0, width, height);
        if (isStacked) sourceContext.drawImage(video, 0, alphaTop, videoWidth, videoHeight, 0, height, width, height);
        var input = sourceContext.getImageData(0, 0, width, rows, space).data;
        var output = context.createImageData(width, height, space), out = output.data, half = 4 * width * height;
        var firstRow = height > 1 && alphaTop === videoHeight ? 4 * width : 0;
        var layer = grain ? layers[phase === null ? 0 : 1] : null;
        var cells = phase === null ? 256 : grain && grain.spriteCells, first = phase === null ? 0 : phase * cells;
        for (var i = 0; i < half; i += 4) {
          var r = expand(input[i]), g = expand(input[i + 1]), b = expand(input[i + 2]), a = 255;
          if (isStacked) {
            var at = half + (i < firstRow ? i + firstRow : i);
            a = Math.floor(
              (2126 * expand(input[at]) + 7152 * expand(input[at + 1]) + 722 * expand(input[at + 2]) + 5000) / 10000);
            r = a ? Math.round(Math.min(r, a) * 255 / a) : 0;
            g = a ? Math.round(Math.min(g, a) * 255 / a) : 0;
            b = a ? Math.round(Math.min(b, a) * 255 / a) : 0;
          }
          if (layer) {
            var pixel = i / 4, x = pixel % width, y = (pixel - x) / width;
            var cell = 4 * ((first + Math.floor(y / grain.cell) % cells) * layer.width + Math.floor(x / grain.cell) % cells);
            r = overlay(r, layer.data[cell]); g = overlay(g, layer.data[cell + 1]); b = overlay(b, layer.data[cell + 2]);
          }
          out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a;
        }
        context.putImageData(output, 0, 0);
      }
    };
  }

  /** DESIGN's overlay of the grain's n (0...255) on a channel (0...255): C + g·min(C, 1 − C). */
  function overlay(channel, n) {
    var c = channel / 255, g = 2 * n / 255 - 1;
    return Math.round(255 * (c + g * Math.min(c, 1 - c)));
  }

  function makeRenderer(canvas, choice, limited, grain, colorSpace) {
    if (choice !== '2d') {
      var gl = null;
      try {
        gl = webGLRenderer(canvas, limited, grain, colorSpace);
      } catch (error) {
        if (choice === 'webgl') throw error;
      }
      if (gl || choice === 'webgl') return gl;
    }
    return canvas2DRenderer(canvas, limited, grain, colorSpace);
  }

  /** The grain option's images, loaded: a Promise of { tile, sprite, ... } or of null. */
  function loadGrain(grain) {
    if (!grain) return Promise.resolve(null);
    function load(url) {
      if (!url) return Promise.resolve(null);
      return new Promise(function (resolve, reject) {
        var image = new Image();
        image.onload = function () { resolve(image); };
        image.onerror = function () { reject(new Error('cannot load the grain ' + url)); };
        image.src = url;
      });
    }
    return Promise.all([load(grain.tile), load(grain.sprite)]).then(function (images) {
      return {
        tile: images[0], sprite: images[1], spriteCells: grain.spriteCells || 128, cell: grain.cell || 1,
        fps: grain.fps || 30, width: grain.width, height: grain.height
      };
    });
  }

  function attach(video, canvas, options) {
    options = options || {};
    var listeners = [], detached = false, renderer = null, layout = null, pending = null, lastTime = -1;
    var grain = null, contentHeight = 0;
    var motion = global.matchMedia ? global.matchMedia('(prefers-reduced-motion: reduce)') : null;
    function listen(target, type, handler) {
      if (!target || !target.addEventListener) return;
      target.addEventListener(type, handler);
      listeners.push([target, type, handler]);
    }
    video.muted = true;
    if (options.loop !== false) video.loop = true;
    video.playsInline = true;
    video.setAttribute('playsinline', '');
    video.preload = 'auto';
    if (!canvas.style.objectFit) canvas.style.objectFit = 'cover';
    if (!canvas.style.width) canvas.style.width = '100%';
    if (!canvas.style.height) canvas.style.height = '100%';
    canvas.style.display = 'block';
    // Hidden but laid out: some browsers stop decoding a video that is display: none.
    video.style.position = 'absolute';
    video.style.width = video.style.height = '1px';
    video.style.opacity = '0';
    video.style.pointerEvents = 'none';

    function reducedMotion() { return !!(motion && motion.matches); }

    /** Animated grain's phase of the frame showing `mediaTime`, or null for the still tile. */
    function grainPhase(mediaTime) {
      if (!grain || !grain.sprite || reducedMotion()) return null;
      var frame = Math.round(mediaTime * grain.fps);
      return ((frame % 8) + 8) % 8;
    }

    function draw(mediaTime) {
      if (detached || !renderer || video.readyState < 2) return false;
      var width = video.videoWidth;
      var height = layout !== 'stacked' ? video.videoHeight : contentHeight || video.videoHeight / 2;
      var output = grain ? { width: grain.width, height: grain.height } : { width: width, height: height };
      if (canvas.width !== output.width || canvas.height !== output.height) {
        canvas.width = output.width; canvas.height = output.height;
      }
      var time = typeof mediaTime === 'number' ? mediaTime : video.currentTime;
      renderer.draw(video, width, height, layout === 'stacked', output, grainPhase(time));
      lastTime = video.currentTime;
      return true;
    }

    // Every presented frame where requestVideoFrameCallback exists, else each animation
    // frame in which the video's time moved.
    function schedule() {
      if (detached) return;
      if (video.requestVideoFrameCallback) {
        pending = ['video', video.requestVideoFrameCallback(function (now, metadata) {
          draw(metadata && metadata.mediaTime);
          schedule();
        })];
      } else {
        pending = ['animation', global.requestAnimationFrame(function () {
          if (video.currentTime !== lastTime) draw();
          schedule();
        })];
      }
    }

    function applyMotionPreference() {
      if (reducedMotion()) {
        video.autoplay = false;
        video.pause();
        if (video.currentTime !== 0) video.currentTime = 0; else draw();
      } else if (options.autoplay !== false) {
        var playing = video.play();
        if (playing && playing.catch) playing.catch(function () {});
      }
    }

    var ready = new Promise(function (resolve, reject) {
      function start() {
        var url = video.currentSrc || video.src;
        var known = readStackedHeight(url).then(function (height) {
          if (height !== null && 2 * height <= video.videoHeight) contentHeight = height;
          if (options.layout && options.layout !== 'auto') return options.layout;
          return height === null || 2 * height > video.videoHeight ? 'plain' : 'stacked';
        });
        Promise.all([known, loadGrain(options.grain)]).then(function (found) {
          if (detached) return;
          grain = found[1];
          layout = found[0] === 'stacked' && video.videoHeight % 2 === 0 ? 'stacked' : 'plain';
          renderer = makeRenderer(
            canvas, options.renderer || 'auto', options.videoRange === 'limited', grain, options.colorSpace || 'srgb');
          if (!renderer) throw new Error('neither WebGL nor a 2D canvas is available');
          function first() {
            draw();
            resolve({
              layout: layout, renderer: renderer.name, width: canvas.width, height: canvas.height,
              colorSpace: renderer.colorSpace
            });
          }
          if (video.readyState >= 2) first(); else listen(video, 'loadeddata', first);
          schedule();
          applyMotionPreference();
        }).catch(reject);
      }
      if (video.readyState >= 1) start(); else listen(video, 'loadedmetadata', start);
    });
    // A paused video presents no new frames: draw when a seek lands.
    listen(video, 'seeked', function () { draw(); });
    // A lost WebGL context comes back empty: build the renderer again.
    listen(canvas, 'webglcontextlost', function (event) { event.preventDefault(); });
    listen(canvas, 'webglcontextrestored', function () {
      if (!renderer) return;
      renderer = makeRenderer(
        canvas, renderer.name, options.videoRange === 'limited', grain, options.colorSpace || 'srgb');
      draw();
    });
    listen(motion, 'change', function () { if (layout) applyMotionPreference(); });
    if (reducedMotion()) {
      video.autoplay = false;
      video.pause();
    }

    return {
      ready: ready,
      draw: draw,
      detach: function () {
        detached = true;
        if (pending && pending[0] === 'video') video.cancelVideoFrameCallback(pending[1]);
        if (pending && pending[0] === 'animation') global.cancelAnimationFrame(pending[1]);
        listeners.forEach(function (l) { l[0].removeEventListener(l[1], l[2]); });
      }
    };
  }

  global.FluidGradientPlayer = {
    attach: attach, readLayout: readLayout, readStackedHeight: readStackedHeight, LAYOUT_COMMENT: LAYOUT_COMMENT
  };
})(typeof window !== 'undefined' ? window : this);
