import FluidGradient
import FluidGradientIO
import Foundation
import Testing

@Suite struct BundlePageTests {
    private func page(player: String? = nil, colorSpace: ColorSpace = .srgb) -> BundlePage {
        BundlePage(
            title: "Hero <loop>", width: 1920, height: 1080,
            sources: [
                BundleSource(file: "loop-av1.mp4", type: "video/mp4; codecs=\"av01.0.01M.10\""),
                BundleSource(file: "loop-h264.mp4", type: "video/mp4; codecs=\"avc1.64001E\""),
            ],
            posters: [(file: "poster.avif", type: "image/avif"), (file: "poster.jpg", type: "image/jpeg")],
            player: player, colorSpace: colorSpace)
    }

    /// The video is muted, inline, looping and autoplaying (what browsers need to start it
    /// without a gesture), its sources keep their order, and the poster is the fallback.
    @Test func aPlainPageListsTheSourcesInOrder() {
        let html = page().html
        #expect(
            html.contains(
                "<video autoplay muted loop playsinline preload=\"auto\" width=\"1920\" height=\"1080\" "
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

    /// A Display P3 page says so on its block and gives the player a display-p3 canvas; an
    /// sRGB page says nothing new.
    @Test func aDisplayP3PageKeepsItsSpace() {
        let html = page(player: "fluidgradient-player.js", colorSpace: .displayP3).html
        #expect(html.contains("<div class=\"fluidgradient\" data-color-space=\"display-p3\">"))
        #expect(html.contains("{ colorSpace: 'display-p3' }"))
        let plain = page(player: "fluidgradient-player.js").html
        #expect(plain.contains("<div class=\"fluidgradient\">") && !plain.contains("colorSpace"))
    }

    @Test func escapingCoversElementsAndBothQuotes() {
        #expect(BundlePage.escaped("a&b<c>\"d'e") == "a&amp;b&lt;c&gt;&quot;d&#39;e")
    }
}
