import FluidGradient
import Foundation
import Testing

@Suite struct PaletteTests {
    /// Four flat regions of known colours and sizes, with a little noise.
    static func synthetic(width: Int = 200, height: Int = 100) -> (
        pixels: [SIMD4<Double>], colors: [RGBA], shares: [Double]
    ) {
        let colors = [
            RGBA(bytes: 230, 57, 70), RGBA(bytes: 29, 53, 87), RGBA(bytes: 241, 250, 238), RGBA(bytes: 69, 123, 157),
        ]
        let widths = [80, 60, 40, 20]
        var generator = SplitMix64(seed: 4)
        var pixels: [SIMD4<Double>] = []
        for _ in 0..<height {
            for x in 0..<width {
                var region = 0, edge = widths[0]
                while x >= edge {
                    region += 1
                    edge += widths[region]
                }
                let c = colors[region]
                func noise() -> Double { (generator.nextUnit() - 0.5) * 0.01 }
                pixels.append(SIMD4(c.red + noise(), c.green + noise(), c.blue + noise(), 1))
            }
        }
        return (pixels, colors, widths.map { Double($0) / Double(width) })
    }

    @Test func recoversKnownColoursAndShares() {
        let (pixels, colors, shares) = Self.synthetic()
        let swatches = PaletteExtractor(count: 4).extract(width: 200, height: 100) { pixels[$1 * 200 + $0] }
        #expect(swatches.count == 4)
        for (swatch, (color, share)) in zip(swatches, zip(colors, shares)) {
            #expect(swatch.lab.distance(to: OKLab(color)) < 0.005, "\(swatch.color.hex) vs \(color.hex)")
            #expect(abs(swatch.share - share) < 0.01)
        }
    }

    @Test func givesTheSameAnswerEveryTime() {
        let (pixels, _, _) = Self.synthetic()
        let first = PaletteExtractor(count: 6).extract(width: 200, height: 100) { pixels[$1 * 200 + $0] }
        for _ in 0..<3 {
            #expect(PaletteExtractor(count: 6).extract(width: 200, height: 100) { pixels[$1 * 200 + $0] } == first)
        }
    }

    @Test func ignoresTransparentPixels() {
        let swatches = PaletteExtractor(count: 3).extract(width: 10, height: 10) { x, _ in
            x < 5 ? SIMD4(1, 0, 0, 1) : SIMD4(0, 1, 0, 0)
        }
        #expect(swatches.map(\.color.hex) == ["#FF0000"])
    }

    @Test func makesAPresetThatReadsBack() throws {
        let (pixels, _, _) = Self.synthetic()
        let swatches = PaletteExtractor(count: 4).extract(width: 200, height: 100) { pixels[$1 * 200 + $0] }
        let preset = Preset(palette: swatches, name: "flag", description: "test")
        #expect(preset.colors.count == 4 && preset.highlights.count == 1)
        guard case .color(let background) = preset.background else {
            Issue.record("background")
            return
        }
        #expect(OKLab(background).l < swatches.map(\.lab.l).min()!)
        let decoded = try Preset(json: Array(preset.jsonText.utf8), file: "flag.json")
        #expect(try decoded == Preset(json: Array(decoded.jsonText.utf8), file: "again.json"))
        #expect(decoded.colors.map(\.hex) == preset.colors.map(\.hex))
    }

    /// A vivid accent covering 2.5% of the image (a sun over fields and sky) does not
    /// become the highlight, which overlays large blobs; a vivid colour with a real share does.
    @Test func theHighlightComesFromASubstantialColour() throws {
        let swatches = PaletteExtractor(count: 3).extract(width: 200, height: 100) { x, y in
            if x < 5, y < 100 { return SIMD4(1, 0.9, 0.2, 1) }  // 2.5%: yellow sun
            return x < 100 ? SIMD4(0.2, 0.5, 0.2, 1) : SIMD4(0.3, 0.5, 0.9, 1)
        }
        try #require(swatches.count == 3)
        // Largest first: the sky (50%), the fields (47.5%), the sun.
        let sun = swatches[2]
        #expect(sun.share == 0.025 && swatches[0].share == 0.5)
        let highlights = Preset(palette: swatches, name: "land", description: "").highlights
        try #require(highlights.count == 1)
        let highlight = OKLab(highlights[0])
        // The lift keeps a swatch's hue (a and b scaled alike), so the hue tells which it came from.
        func hueDistance(_ swatch: PaletteExtractor.Swatch) -> Double {
            abs(atan2(highlight.b, highlight.a) - atan2(swatch.lab.b, swatch.lab.a))
        }
        let source = swatches.min { hueDistance($0) < hueDistance($1) }
        #expect(source?.color.hex != sun.color.hex, "the sun's yellow became the highlight")
        #expect(hueDistance(sun) > 1)
    }

    @Test func okLabRoundTripsAndMatchesReferenceValues() {
        // White is L = 1, a = b = 0; sRGB red is (0.628, 0.225, 0.126) in Ottosson's reference.
        let white = OKLab(.white)
        #expect(abs(white.l - 1) < 1e-4 && abs(white.a) < 1e-4 && abs(white.b) < 1e-4)
        let red = OKLab(RGBA(bytes: 255, 0, 0))
        #expect(abs(red.l - 0.628) < 1e-3 && abs(red.a - 0.225) < 1e-3 && abs(red.b - 0.126) < 1e-3)
        let color = RGBA(bytes: 13, 200, 97)
        let back = OKLab(color).rgba
        #expect(
            abs(back.red - color.red) < 1e-6 && abs(back.green - color.green) < 1e-6
                && abs(back.blue - color.blue) < 1e-6)
    }
}
