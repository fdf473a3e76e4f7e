import FluidGradient

/// One `<source>` of the bundle's video: a file and the MIME type with its codecs
/// parameter, which a browser reads to skip what it cannot play without fetching it.
package struct BundleSource: Sendable, Equatable {
    /// The file's name inside the bundle.
    package var file: String
    /// `video/mp4; codecs="av01.0.01M.10"` and the like (RFC 6381).
    package var type: String

    package init(file: String, type: String) {
        self.file = file
        self.type = type
    }
}

/// The bundle's `index.html`: the loop as a background that covers its container, with
/// the poster in its place when the reader asks for reduced motion.
///
/// The poster is shown over the loop until the loop has painted its first frame, then
/// cross-fades away over ``posterFade``: the poster and the video's first frame are the
/// same instant, but each engine converts the two by different roads (a JPEG's or an
/// AVIF's decoder, the video's), so a switch in one frame would show their difference as
/// a jump (up to a few levels in 40x40 blocks; docs/web.md). Without script the video
/// shows its `poster` attribute until it plays, as before.
///
/// The page is the snippet a site copies: the `<style>` and the `.fluidgradient` block.
/// Nothing in it needs a build step or a framework. A transparent loop is drawn by the
/// player script from a stacked-alpha video; an opaque one is a plain `<video>`.
package struct BundlePage: Sendable {
    /// The page's title.
    package var title: String
    /// The display size: the size the loop was designed for, not the encoded size.
    package var width: Int
    package var height: Int
    /// The loop's sources, in the order a browser should try them.
    package var sources: [BundleSource]
    /// Poster stills as (file, MIME type), best first; the last one is the fallback
    /// every browser shows, and the video's `poster`.
    package var posters: [(file: String, type: String)]
    /// The player script's file name, when the sources are stacked alpha.
    package var player: String?
    /// The loop's and posters' colour space, which the player's canvas takes.
    package var colorSpace: ColorSpace
    /// The grain laid over the loop, when the preset has some (``BundleGrain``).
    package var grain: PageGrain?

    package init(
        title: String, width: Int, height: Int, sources: [BundleSource],
        posters: [(file: String, type: String)], player: String? = nil, colorSpace: ColorSpace = .srgb,
        grain: PageGrain? = nil
    ) {
        precondition(!posters.isEmpty, "a bundle page needs a poster")
        self.title = title
        self.width = width
        self.height = height
        self.sources = sources
        self.posters = posters
        self.player = player
        self.colorSpace = colorSpace
        self.grain = grain
    }

    /// The whole page.
    package var html: String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(BundlePage.escaped(title))</title>
        \(style)
        </head>
        <body>
        \(block)
        \(script)
        </body>
        </html>

        """
    }

    /// How long the poster takes to fade into the playing loop: 36 frames at 60 Hz, so a
    /// block that differs by 12 levels changes by a third of a level a frame.
    static let posterFade = "0.6s"

    /// Covers the container like `background-size: cover`; with reduced motion the
    /// video (or the player's canvas) is hidden and the poster shown.
    var style: String {
        // The player draws on the canvas, so its source video stays out of sight.
        let hiddenVideo = player == nil ? "" : "\n  .fluidgradient > video { visibility: hidden; }"
        return """
            <style>
              html, body { margin: 0; height: 100%; }
              .fluidgradient { position: relative; width: 100%; height: 100%; overflow: hidden; }
              .fluidgradient > video, .fluidgradient > canvas, .fluidgradient > picture > img {
                position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; display: block;
              }
              .fluidgradient > picture { display: none; }
              .fluidgradient.poster-first > picture { display: block; transition: opacity \(BundlePage.posterFade) linear; }
              .fluidgradient.poster-first.playing > picture { opacity: 0; }\(hiddenVideo)
              @media (prefers-reduced-motion: reduce) {
                .fluidgradient > video, .fluidgradient > canvas { display: none; }
                .fluidgradient > picture { display: block; }
              }\(grainStyle)
            </style>
            """
    }

    var block: String {
        let fallback = posters[posters.count - 1].file
        let sourceLines = sources.map { "    <source src=\"\(attribute($0.file))\" type='\(attribute($0.type))'>" }
        let posterLines = posters.dropLast().map { "    <source srcset=\"\(attribute($0.file))\" type=\"\($0.type)\">" }
        let canvas = player == nil ? "" : "\n  <canvas width=\"\(width)\" height=\"\(height)\"></canvas>"
        let space = colorSpace == .srgb ? "" : " data-color-space=\"\(colorSpace.rawValue)\""
        return """
            <div class="fluidgradient"\(space)>
              <video autoplay muted loop playsinline preload="auto" width="\(width)" height="\(height)" \
            poster="\(attribute(fallback))">
            \(sourceLines.joined(separator: "\n"))
              </video>\(canvas)
              <picture>
            \(posterLines.joined(separator: "\n"))
                <img src="\(attribute(fallback))" alt="" width="\(width)" height="\(height)">
              </picture>\(grainElement)
            </div>
            """
    }

    /// Reduced motion stops the loop before it starts: hiding a video does not stop a
    /// browser from decoding it. Otherwise the poster stays over the loop until its first
    /// frame is painted (the player's first draw, or the video's first presented frame),
    /// then fades.
    var script: String {
        let start =
            player.map {
                """

                <script src="\(attribute($0))"></script>
                <script>
                  for (const box of document.querySelectorAll('.fluidgradient.poster-first')) {
                    FluidGradientPlayer.attach(box.querySelector('video'), box.querySelector('canvas')\(playerOptions))
                      .ready.then(() => requestAnimationFrame(() => box.classList.add('playing')));
                  }
                </script>
                """
            } ?? ""
        let painted = [
            "",
            "      const shown = () => requestAnimationFrame(() => box.classList.add('playing'));",
            "      if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(shown);",
            "      else video.addEventListener('playing', shown, { once: true });",
        ]
        .joined(separator: "\n")
        return """
            <script>
              const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
              for (const box of document.querySelectorAll('.fluidgradient')) {
                const video = box.querySelector('video');
                if (still) {
                  video.removeAttribute('autoplay');
                  video.preload = 'none';
                  video.pause();
                } else {
                  box.classList.add('poster-first');\(player == nil ? painted : "")
                }
              }
            </script>
            """ + start
    }

    /// The player's options: the grain (``playerGrainOption``) and the canvas's colour
    /// space for a Display P3 loop.
    private var playerOptions: String {
        let space = colorSpace == .srgb ? nil : "colorSpace: '\(colorSpace.rawValue)'"
        switch (playerGrainOption, space) {
        case (nil, nil): return ""
        case (nil, let space?): return ", { \(space) }"
        case (let grain?, let space):
            return ", {\n      " + ([grain] + [space].compactMap { $0 }).joined(separator: ",\n      ") + "\n    }"
        }
    }

    private func attribute(_ text: String) -> String { BundlePage.escaped(text) }

    /// `text` safe inside an element or a quoted attribute.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
