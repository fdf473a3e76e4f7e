import FluidGradient
import FluidGradientIO
import Foundation
import Testing

@Suite struct CodecStringTests {
    /// The forms that browsers and the codecs' own specifications give, field by field.
    @Test func eachCodecNamesItsProfileLevelAndDepth() {
        func text(_ codec: String, _ profile: String, _ level: Int, _ depth: Int) -> String? {
            CodecString(codec: codec, profile: profile, level: level, bitDepth: depth, width: 480, height: 270, fps: 60).text
        }
        #expect(text("h264", "High", 30, 8) == "avc1.64001E")
        #expect(text("h264", "Constrained Baseline", 31, 8) == "avc1.42401F")
        #expect(text("h264", "Main", 40, 8) == "avc1.4D0028")
        #expect(text("hevc", "Main 10", 93, 10) == "hvc1.2.4.L93.B0")
        #expect(text("hevc", "Main", 120, 8) == "hvc1.1.6.L120.B0")
        #expect(text("av1", "Main", 1, 10) == "av01.0.01M.10")
        #expect(text("av1", "Main", 12, 8) == "av01.0.12M.08")
        #expect(text("vp9", "Profile 2", -99, 10) == "vp09.02.21.10")
        #expect(text("prores", "4444", 0, 10) == nil)
    }

    /// VP9's level is the lowest whose limits hold the picture size and sample rate.
    @Test func vp9LevelsFollowTheSpecificationsLimits() {
        func level(_ width: Int, _ height: Int, _ fps: Double) -> Int {
            CodecString(codec: "vp9", profile: "Profile 0", level: -99, bitDepth: 8, width: width, height: height, fps: fps)
                .vp9Level
        }
        #expect(level(256, 144, 15) == 10)  // 36,864 samples: exactly level 1's picture
        #expect(level(256, 144, 30) == 11)  // 1,105,920 samples/s: over level 1's 829,440
        #expect(level(1920, 1080, 30) == 40)
        #expect(level(1920, 1080, 60) == 41)
        #expect(level(3840, 2160, 60) == 51)
        #expect(level(16384, 16384, 60) == 62)  // beyond every level: the highest
    }
}

@Suite struct BundlePageTests {
    private func page(player: String? = nil) -> BundlePage {
        BundlePage(
            title: "Hero <loop>", width: 1920, height: 1080,
            sources: [BundleSource(file: "loop-av1.mp4", type: "video/mp4; codecs=\"av01.0.01M.10\""),
                      BundleSource(file: "loop-h264.mp4", type: "video/mp4; codecs=\"avc1.64001E\"")],
            posters: [(file: "poster.avif", type: "image/avif"), (file: "poster.jpg", type: "image/jpeg")],
            player: player)
    }

    /// The video is muted, inline, looping and autoplaying (what browsers need to start it
    /// without a gesture), its sources keep their order, and the poster is the fallback.
    @Test func aPlainPageListsTheSourcesInOrder() {
        let html = page().html
        #expect(html.contains("<video autoplay muted loop playsinline preload=\"auto\" width=\"1920\" height=\"1080\" "
            + "poster=\"poster.jpg\">"))
        let av1 = html.range(of: "<source src=\"loop-av1.mp4\" type='video/mp4; codecs=&quot;av01.0.01M.10&quot;'>")
        let h264 = html.range(of: "<source src=\"loop-h264.mp4\"")
        #expect(av1 != nil && h264 != nil && av1!.lowerBound < h264!.lowerBound)
        #expect(html.contains("<source srcset=\"poster.avif\" type=\"image/avif\">"))
        #expect(html.contains("<img src=\"poster.jpg\" alt=\"\" width=\"1920\" height=\"1080\">"))
        #expect(html.contains("<title>Hero &lt;loop&gt;</title>"))
        #expect(html.contains("@media (prefers-reduced-motion: reduce)"))
        #expect(!html.contains("<canvas") && !html.contains("FluidGradientPlayer"))
    }

    /// A stacked-alpha page draws through the player on a canvas and hides the video.
    @Test func aStackedAlphaPageLoadsThePlayer() {
        let html = page(player: "fluidgradient-player.js").html
        #expect(html.contains("<canvas width=\"1920\" height=\"1080\"></canvas>"))
        #expect(html.contains("<script src=\"fluidgradient-player.js\"></script>"))
        #expect(html.contains(".fluidgradient > video { visibility: hidden; }"))
    }

    @Test func escapingCoversElementsAndBothQuotes() {
        #expect(BundlePage.escaped("a&b<c>\"d'e") == "a&amp;b&lt;c&gt;&quot;d&#39;e")
    }
}

@Suite struct BundleManifestTests {
    /// Sorted keys and rounded measures: the same bundle gives the same bytes, and a
    /// lossless file's infinite PSNR is spelled out rather than failing the encoding.
    @Test func theJSONIsStableAndTakesAnInfinitePSNR() throws {
        let file = BundleManifest.File(
            file: "poster.png", role: "poster", type: "image/png", codec: "png", bitDepth: 8, bytes: 10,
            width: 4, height: 2, psnr: .infinity, largestError: 0.123456)
        let manifest = BundleManifest(
            generator: "fluidgradient test", displayWidth: 4, displayHeight: 2, encodedWidth: 4, encodedHeight: 2,
            fps: 30, frames: 1, transparent: false, measuredAt: [0], files: [file])
        let text = String(decoding: manifest.json(), as: UTF8.self)
        #expect(text.contains("\"psnr\" : \"Infinity\""))
        #expect(text.contains("\"largestError\" : 0.123"))
        #expect(text.firstRange(of: "\"displayHeight\"")!.lowerBound < text.firstRange(of: "\"files\"")!.lowerBound)
        #expect(manifest.json() == manifest.json())
    }
}
