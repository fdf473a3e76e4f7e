import Foundation
import FluidGradient
import Testing

/// DESIGN section 7: the gradient model, the linear angle rule, radial and conic fills.
@Suite struct GradientModelTests {
    static let black = RGBA.black, white = RGBA.white

    @Test func clampsSortsAndKeepsAtLeastTwoStops() throws {
        #expect(throws: GradientError.tooFewStops(1)) { try Gradient(stops: [(0, Self.black)]) }
        let gradient = try Gradient(stops: [(1.5, Self.white), (-0.2, Self.black), (0.5, RGBA(bytes: 255, 0, 0))])
        #expect(gradient.stops.map(\.location) == [0, 0.5, 1])
        #expect(gradient.stops.map(\.color) == [Self.black, RGBA(bytes: 255, 0, 0), Self.white])
    }

    @Test func insertsBetweenTheLastTwoWithTheirMeanColour() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (0.4, RGBA(bytes: 255, 0, 0)), (1, RGBA(bytes: 0, 0, 255))])
        let id = gradient.insertStopBetweenLastTwo()
        let stop = try #require(gradient.stops.first { $0.id == id })
        #expect(abs(stop.location - 0.7) < 1e-12)
        #expect(stop.color == RGBA(red: 0.5, green: 0, blue: 0.5))
        #expect(gradient.stops.map(\.location) == [0, 0.4, stop.location, 1])
    }

    @Test func insertsAtALocationWithTheColourAlreadyThere() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (1, Self.white)])
        let before = gradient.color(at: 0.25)
        let id = gradient.insertStop(at: 0.25)
        #expect(gradient.stops.first { $0.id == id }?.color == RGBA(red: 0.25, green: 0.25, blue: 0.25))
        for t in stride(from: 0.0, through: 1, by: 0.05) {
            let difference = gradient.color(at: t) - (t == 0.25 ? before : try Gradient(stops: [(0, Self.black), (1, Self.white)]).color(at: t))
            #expect(abs(difference).max() < 1e-12, "the picture changed at \(t)")
        }
    }

    @Test func movingKeepsIdentityClampsAndResorts() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (0.5, RGBA(bytes: 255, 0, 0)), (1, Self.white)])
        let ids = gradient.stops.map(\.id)
        try gradient.moveStop(id: ids[2], to: 0.25)
        #expect(gradient.stops.map(\.id) == [ids[0], ids[2], ids[1]])
        try gradient.moveStop(id: ids[0], to: 7)
        #expect(gradient.stops.map(\.id) == [ids[2], ids[1], ids[0]])
        #expect(gradient.stops.last?.location == 1)
        try gradient.moveStop(id: ids[1], to: -3)
        #expect(gradient.stops.first?.id == ids[1] && gradient.stops.first?.location == 0)
        // Equal locations keep their current order.
        try gradient.moveStop(id: ids[2], to: 0)
        #expect(gradient.stops.map(\.id) == [ids[1], ids[2], ids[0]])
        try gradient.setColor(Self.white, ofStop: ids[1])
        #expect(gradient.stops.first { $0.id == ids[1] }?.color == Self.white)
        #expect(throws: GradientError.unknownStop(99)) { try gradient.moveStop(id: 99, to: 0.5) }
    }

    @Test func refusesToDropBelowTwoStops() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (0.5, RGBA(bytes: 255, 0, 0)), (1, Self.white)])
        try gradient.removeStop(id: gradient.stops[1].id)
        #expect(gradient.stops.count == 2)
        #expect(throws: GradientError.lastTwoStops) { try gradient.removeStop(id: gradient.stops[0].id) }
        #expect(gradient.stops.count == 2)
    }

    @Test func interpolatesPremultipliedBetweenStops() throws {
        let gradient = try Gradient(stops: [(0.2, RGBA(red: 1, green: 0, blue: 0, alpha: 1)), (0.6, RGBA(red: 0, green: 0, blue: 1, alpha: 0.5))])
        #expect(gradient.color(at: 0) == SIMD4(1, 0, 0, 1))
        #expect(gradient.color(at: 0.9) == SIMD4(0, 0, 0.5, 0.5))
        let middle = gradient.color(at: 0.4)
        for (lane, expected) in [0.5, 0, 0.25, 0.75].enumerated() { #expect(abs(middle[lane] - expected) < 1e-12) }
        // Two stops at one location make a hard step.
        let step = try Gradient(stops: [(0, Self.black), (0.5, Self.black), (0.5, Self.white), (1, Self.white)])
        #expect(step.color(at: 0.4999) == SIMD4(0, 0, 0, 1))
        #expect(step.color(at: 0.5) == SIMD4(1, 1, 1, 1))
    }

    @Test func parsesTheCommandLineSyntax() throws {
        let fill = try Fill(parsing: "linear 270 #000 0, #123 50%, white 1")
        guard case .gradient(let gradient) = fill else { Issue.record("not a gradient"); return }
        #expect(gradient.kind == .linear && gradient.angle == 270)
        #expect(gradient.stops.map(\.location) == [0, 0.5, 1])
        #expect(gradient.stops.map(\.color.hex) == ["#000000", "#112233", "#FFFFFF"])
        #expect(try Fill(parsing: "conic 45deg red, blue") == .gradient(try Gradient(kind: .conic, angle: 45, stops: [(0, RGBA(bytes: 255, 0, 0)), (1, RGBA(bytes: 0, 0, 255))])))
        #expect(try Fill(parsing: " teal ") == .color(RGBA(bytes: 0, 128, 128)))
        #expect(try Fill(parsing: fill.text) == fill)
        for bad in ["linear", "linear 90 red", "linear 90 red 0, blue", "linear 0 red 0, lime nan, blue 1", "linear 0 red inf, blue 1", "linear nan red, blue", "spiral red, blue", "linear 90 red 0, nope 1", "red blue", ""] {
            #expect(throws: FillParseError.self, "\(bad)") { try Fill(parsing: bad) }
        }
        #expect(throws: Never.self) { try Fill(parsing: "linear -36000deg red, blue") }
        for (bare, reason) in [
            ("radial", "a radial gradient needs at least 2 stops, such as \"radial red, blue\""),
            ("linear 90", "a linear gradient needs at least 2 stops, such as \"linear red, blue\""),
            ("linear 0 red nan, blue 1", "stop 1: \"nan\" is not a location (0...1 or 0%...100%)"),
            ("linear infdeg red, blue", "the angle \"infdeg\" is not a number of degrees"),
            // The bounds of a preset file's angle (PresetLimits.gradientAngle).
            ("linear 36001 red, blue", "the angle 36001 is outside the allowed range -36000...36000"),
            ("conic -1e300deg red, blue", "the angle -1e300deg is outside the allowed range -36000...36000"),
        ] {
            #expect { try Fill(parsing: bare) } throws: { ($0 as? FillParseError)?.reason == reason }
        }
    }
}

@Suite struct GradientFillTests {
    /// The linear rule worked by hand: end = (cos θ, sin θ) scaled so the larger of
    /// |x|, |y| is 1, in [−1, 1]² with y up; mapped to unit space with y down.
    @Test(arguments: [
        (0.0, SIMD2(0.0, 0.5), SIMD2(1.0, 0.5)),
        (45.0, SIMD2(0.0, 1.0), SIMD2(1.0, 0.0)),
        (90.0, SIMD2(0.5, 1.0), SIMD2(0.5, 0.0)),
        (135.0, SIMD2(1.0, 1.0), SIMD2(0.0, 0.0)),
        (180.0, SIMD2(1.0, 0.5), SIMD2(0.0, 0.5)),
        (270.0, SIMD2(0.5, 0.0), SIMD2(0.5, 1.0)),
        (300.0, SIMD2(0.5 - 0.5 / 3.0.squareRoot(), 0.0), SIMD2(0.5 + 0.5 / 3.0.squareRoot(), 1.0)),
    ])
    func linearEndpointsFollowTheAngleRule(angle: Double, start: SIMD2<Double>, end: SIMD2<Double>) throws {
        let gradient = try Gradient(kind: .linear, angle: angle, stops: [(0, .black), (1, .white)])
        let (s, e) = gradient.linearEndpoints
        #expect(abs(s - start).max() < 1e-12 && abs(e - end).max() < 1e-12, "\(s) → \(e)")
    }

    /// Rendered pixels at the corners and the centre, black → white, against the
    /// projection onto start→end in pixels computed here.
    @Test(arguments: [0.0, 45.0, 90.0, 135.0, 180.0, 270.0, 300.0])
    func linearPixelsAtCornersAndCentre(angle: Double) throws {
        let width = 200, height = 100
        let gradient = try Gradient(kind: .linear, angle: angle, stops: [(0, .black), (1, .white)])
        let image = try Self.background(.gradient(gradient), width: width, height: height)
        let radians = angle * .pi / 180
        let scale = max(abs(cos(radians)), abs(sin(radians)))
        let end = SIMD2((0.5 + 0.5 * cos(radians) / scale) * Double(width), (0.5 - 0.5 * sin(radians) / scale) * Double(height))
        let start = SIMD2(Double(width), Double(height)) - end
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2)] {
            let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
            let t = ((p - start) * (end - start)).sum() / ((end - start) * (end - start)).sum()
            let expected = min(max(t, 0), 1)
            #expect(abs(image.pixel(x, y).x - expected) < 1.0 / 65535 + 1e-6, "angle \(angle) at (\(x), \(y)): t = \(t)")
        }
        // The corner the end point names is white, its opposite black (within half a pixel).
        if angle == 45 {
            #expect(image.pixel(width - 1, 0).x > 0.99 && image.pixel(0, height - 1).x < 0.01)
        }
    }

    @Test func radialAtKnownPixels() throws {
        let gradient = try Gradient(kind: .radial, stops: [(0, .white), (1, .black)])
        let image = try Self.background(.gradient(gradient), width: 101, height: 101)
        #expect(image.pixel(50, 50).x == 1)  // the centre pixel: t = 0
        // t = sqrt(2·(u² + v²)) with u, v the offsets in frame units: corners near 1.
        // Pixel (0, 0) is centred 50/101 of the frame from the centre on both axes.
        let corner = (2 * 2 * (50.0 / 101) * (50.0 / 101)).squareRoot()
        #expect(abs(image.pixel(0, 0).x - (1 - min(corner, 1))) < 2.0 / 65535)
        let edge = (2 * (50.0 / 101) * (50.0 / 101)).squareRoot()
        #expect(abs(image.pixel(100, 50).x - (1 - edge)) < 2.0 / 65535)
    }

    @Test func conicTurnsAnticlockwiseFromTheAngle() throws {
        let gradient = try Gradient(kind: .conic, angle: 0, stops: [(0, .black), (1, .white)])
        let image = try Self.background(.gradient(gradient), width: 101, height: 101)
        // East of centre t ≈ 0 (just above, since the pixel centre is at 0°), north ¼, west ½, south ¾.
        #expect(image.pixel(100, 50).x < 0.01)
        #expect(abs(image.pixel(50, 0).x - 0.25) < 0.002)
        #expect(abs(image.pixel(0, 50).x - 0.5) < 0.002)
        #expect(abs(image.pixel(50, 100).x - 0.75) < 0.002)
        let rotated = try Gradient(kind: .conic, angle: 90, stops: [(0, .black), (1, .white)])
        let turned = try Self.background(.gradient(rotated), width: 101, height: 101)
        #expect(turned.pixel(50, 0).x < 0.01)
        #expect(abs(turned.pixel(0, 50).x - 0.25) < 0.002)
    }

    /// A gradient background under blurred blobs: the production frame against
    /// `P + B·(1 − αP)`, with P the reference blur of the blobs on transparency and B
    /// the background computed here from the angle rule.
    @Test func gradientBackgroundUnderBlobs() throws {
        let width = 160, height = 90
        let gradient = try Gradient(kind: .linear, angle: 300, stops: [
            (0, try RGBA(parsing: "#0B1026")), (0.6, try RGBA(parsing: "#3B1E54")), (1, try RGBA(parsing: "#9B3675")),
        ])
        let root = randomScene(seed: 21, count: 4, highlights: 1, width: width, height: height).rootLayer(width: width, height: height)
        let blobs = ReferenceRenderer.render(root, spec: FrameSpec(width: width, height: height, background: .color(.clear)))
        let spec = FrameSpec(width: width, height: height, background: .gradient(gradient))
        var buffer = PixelBuffer(width: width, height: height, format: .rgb48le)
        FrameRenderer(spec: spec, threads: 2).render(root, dither: false, into: &buffer)
        var largest = 0.0, total = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let (s, e) = gradient.linearEndpoints
                let start = SIMD2(s.x * Double(width), s.y * Double(height)), end = SIMD2(e.x * Double(width), e.y * Double(height))
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let t = ((p - start) * (end - start)).sum() / ((end - start) * (end - start)).sum()
                let background = gradient.color(at: t)
                let expected = blobs[x, y] + background * (1 - blobs[x, y].w)
                let actual = buffer.channels(x: x, y: y)
                for lane in 0..<3 {
                    let difference = abs(Double(actual[lane]) / 65535 - expected[lane]) * 255
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        #expect(largest <= 2)
        #expect(total / Double(width * height * 3) <= 0.5)
    }

    struct Image {
        let buffer: PixelBuffer
        func pixel(_ x: Int, _ y: Int) -> SIMD4<Double> {
            let c = buffer.channels(x: x, y: y).map { Double($0) / 65535 }
            return SIMD4(c[0], c[1], c[2], c[3])
        }
    }

    /// The background alone, 16-bit, dither off.
    static func background(_ fill: Fill, width: Int, height: Int) throws -> Image {
        var buffer = PixelBuffer(width: width, height: height, format: .rgba64le)
        FrameRenderer(spec: FrameSpec(width: width, height: height, background: fill)).render(Scene(base: []), dither: false, into: &buffer)
        return Image(buffer: buffer)
    }
}

@Suite struct PaletteTests {
    /// Four flat regions of known colours and sizes, with a little noise.
    static func synthetic(width: Int = 200, height: Int = 100) -> (pixels: [SIMD4<Double>], colors: [RGBA], shares: [Double]) {
        let colors = [RGBA(bytes: 230, 57, 70), RGBA(bytes: 29, 53, 87), RGBA(bytes: 241, 250, 238), RGBA(bytes: 69, 123, 157)]
        let widths = [80, 60, 40, 20]
        var generator = SplitMix64(seed: 4)
        var pixels: [SIMD4<Double>] = []
        for _ in 0..<height {
            for x in 0..<width {
                var region = 0, edge = widths[0]
                while x >= edge { region += 1; edge += widths[region] }
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
        guard case .color(let background) = preset.background else { Issue.record("background"); return }
        #expect(OKLab(background).l < swatches.map(\.lab.l).min()!)
        let decoded = try Preset(json: Array(preset.jsonText.utf8), file: "flag.json")
        #expect(try decoded == Preset(json: Array(decoded.jsonText.utf8), file: "again.json"))
        #expect(decoded.colors.map(\.hex) == preset.colors.map(\.hex))
    }

    /// A vivid accent covering 2.5% of the image (a sun over fields and sky) does not
    /// become the highlight, which overlays large blobs; a vivid colour with a real share does.
    @Test func theHighlightComesFromASubstantialColour() throws {
        let swatches = PaletteExtractor(count: 3).extract(width: 200, height: 100) { x, y in
            if x < 5, y < 100 { return SIMD4(1, 0.9, 0.2, 1) }   // 2.5%: yellow sun
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
        #expect(abs(back.red - color.red) < 1e-6 && abs(back.green - color.green) < 1e-6 && abs(back.blue - color.blue) < 1e-6)
    }
}

@Suite struct PaletteFileAndRangeTests {
    @Test func readsListsAndLines() throws {
        #expect(try PaletteFile.colors(Array(##"["#FF0000", "teal"]"##.utf8), file: "p.json").map(\.hex) == ["#FF0000", "#008080"])
        #expect(try PaletteFile.colors(Array("#FF0000\n\n  teal  \n".utf8), file: "p.txt").map(\.hex) == ["#FF0000", "#008080"])
        #expect(throws: PresetError(file: "p.txt", path: "", message: "\"nope\" is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name", line: 2)) {
            try PaletteFile.colors(Array("red\nnope\n".utf8), file: "p.txt")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array("\n\n".utf8), file: "empty.txt") }
        // Windows line endings, and a bad colour on a CRLF line named by its own number.
        #expect(try PaletteFile.colors(Array("#FF0000\r\nteal\r\n".utf8), file: "p.txt").map(\.hex) == ["#FF0000", "#008080"])
        #expect(throws: PresetError(file: "p.txt", path: "", message: "\"nope\" is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name", line: 2)) {
            try PaletteFile.colors(Array("red\r\nnope\r\n".utf8), file: "p.txt")
        }
        // A byte-order mark, as Windows editors write.
        #expect(try PaletteFile.colors([0xEF, 0xBB, 0xBF] + Array("#FF0000\r\nteal\r\n".utf8), file: "p.txt").map(\.hex) == ["#FF0000", "#008080"])
        // An image or other binary file, which would print its bytes in the error.
        #expect(throws: PresetError(file: "photo.png", path: "", message: "this is a PNG image, not a palette (one colour per line or a JSON list); to take its colours, run: fluidgradient palette photo.png")) {
            try PaletteFile.colors([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], file: "photo.png")
        }
        #expect(throws: PresetError(file: "a.bin", path: "", message: "not a text file; a palette is one colour per line or a JSON list of colours")) {
            try PaletteFile.colors([0x72, 0x65, 0x64, 0x0A, 0xFF, 0xFE], file: "a.bin")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array(#"["red", 3]"#.utf8), file: "p.json") }
    }

    @Test func readsWhatThePaletteCommandPrints() throws {
        // Its lines, as printed: the colour, then notes.
        let lines = "#D45649   rgb(212, 86, 73)     31.9%\n#5460CD   rgb(84, 96, 205)     23.4%\n"
        #expect(try PaletteFile.colors(Array(lines.utf8), file: "p.txt").map(\.hex) == ["#D45649", "#5460CD"])
        // Two colours on one line would lose the second.
        #expect(throws: PresetError(file: "p.txt", path: "", message: "\"red\" and \"#00F\" are both colours; put one colour on each line", line: 2)) {
            try PaletteFile.colors(Array("teal\nred 50% #00F\n".utf8), file: "p.txt")
        }
        // Its JSON: objects with the colour and its share.
        let json = ##"[{ "color": "#D45649", "share": 0.319 }, "teal"]"##
        #expect(try PaletteFile.colors(Array(json.utf8), file: "p.json").map(\.hex) == ["#D45649", "#008080"])
        #expect(throws: PresetError(file: "p.json", path: "[0]", message: "a palette entry needs \"color\"", line: 1)) {
            try PaletteFile.colors(Array(##"[{ "share": 1 }]"##.utf8), file: "p.json")
        }
        #expect(throws: PresetError(file: "p.json", path: "[0].color", message: "\"nope\" is not a colour: expected #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name", line: 1)) {
            try PaletteFile.colors(Array(##"[{ "color": "nope" }]"##.utf8), file: "p.json")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array(##"[{ "color": "red", "weight": 1 }]"##.utf8), file: "p.json") }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array("[]".utf8), file: "p.json") }
    }

    @Test func rangesParseWithAnOptionalStep() throws {
        #expect(try ParameterRange(parsing: "0.2...0.6", parameter: "blob-size", bounds: 0...4) == ParameterRange(0.2, 0.6))
        #expect(try ParameterRange(parsing: "0.2...0.6/0.1", parameter: "blob-size", bounds: 0...4) == ParameterRange(0.2, 0.6, step: 0.1))
        #expect(try ParameterRange(parsing: "0.5", parameter: "opacity", bounds: 0...1) == ParameterRange(0.5, 0.5))
    }

    @Test(arguments: [
        ("0.8...0.2", "has min greater than max"),
        ("0.2...5", "is out of bounds"),
        ("a...b", "is not a range"),
        ("0.2...0.6/-1", "has a bad step"),
        ("0.1..0.5", "is not a range"),
    ])
    func rangeErrorsNameTheParameterTheBoundsAndTheValue(text: String, reason: String) {
        do {
            _ = try ParameterRange(parsing: text, parameter: "blob-size", bounds: 0...4)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == "--blob-size: \"\(text)\" \(reason); expected MIN...MAX or MIN...MAX/STEP within 0...4")
        }
    }

    @Test func everyBuiltInPresetRoundTripsThroughJSON() throws {
        for name in PresetFixtures.builtInNames {
            let preset = try PresetFixtures.builtIn(name)
            #expect(try Preset(json: Array(preset.jsonText.utf8), file: name) == preset, "\(name)")
        }
        var pinned = Preset(colors: [])
        pinned.blobs = [Blob(color: .white, center: SIMD2(0.25, 0.75), radius: SIMD2(0.5, 0.125), opacity: 0.5)]
        pinned.ranges.size = ParameterRange(0.1, 0.3, step: 0.05)
        pinned.edges = .clamp
        #expect(try Preset(json: Array(pinned.jsonText.utf8), file: "pinned") == pinned)
    }
}

private func abs<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint { v.replacing(with: -v, where: v .< .zero) }
