import FluidGradient
import Testing

/// Gradient interpolation in sRGB, linear light, OKLab and OKLCH (DESIGN section 13), by
/// CSS Color 4's rules. Chromium's CSS gradients are the outside reference
/// (`Scripts/css-gradients.py`, BENCHMARKS.md).
@Suite struct GradientInterpolationTests {
    static func gradient(_ text: String) throws -> Gradient {
        guard case .gradient(let gradient) = try Fill(parsing: text) else { throw GradientError.tooFewStops(0) }
        return gradient
    }

    /// sRGB interpolation is the premultiplied mix it always was.
    @Test func srgbMixesPremultipliedValues() throws {
        let gradient = try Self.gradient("linear #FF000080, #0000FF")
        let a = RGBA(red: 1, green: 0, blue: 0, alpha: 128.0 / 255).premultiplied, b = SIMD4<Double>(0, 0, 1, 1)
        #expect(gradient.color(at: 0.25) == a + (b - a) * 0.25)
    }

    /// OKLab's midpoint of two colours is the mean of their OKLab coordinates.
    @Test func oklabMixesCoordinates() throws {
        let gradient = try Self.gradient("linear in oklab #FF0000, #0000FF")
        let red = ColorMath.okLab(linearSRGB: SIMD3(1, 0, 0)), blue = ColorMath.okLab(linearSRGB: SIMD3(0, 0, 1))
        let expected = ColorMath.encoded(ColorMath.linearSRGB(okLab: (red + blue) / 2))
        let mid = gradient.color(at: 0.5)
        #expect(max(abs(mid.x - expected.x), abs(mid.y - expected.y), abs(mid.z - expected.z)) < 1e-12)
        let linear = try Self.gradient("linear in linear #FF0000, #0000FF").color(at: 0.5)
        #expect(abs(linear.x - ColorMath.encoded(0.5)) < 1e-12 && abs(linear.z - ColorMath.encoded(0.5)) < 1e-12)
    }

    /// OKLCH goes the shorter way round: from hue 350 to hue 10 through 0, not 180.
    @Test func oklchTakesTheShorterArc() throws {
        let gradient = try Self.gradient("linear in oklch oklch(0.7 0.1 350), oklch(0.7 0.1 10)")
        let mid = gradient.color(at: 0.5)
        let lch = ColorMath.okLCH(okLab: ColorMath.okLab(linearSRGB: ColorMath.linear(SIMD3(mid.x, mid.y, mid.z))))
        #expect(abs(lch.z - 0) < 1e-6 || abs(lch.z - 360) < 1e-6, "\(lch)")
        let reversed = try Self.gradient("linear in oklch oklch(0.7 0.1 10), oklch(0.7 0.1 350)").color(at: 0.5)
        #expect(max(abs(reversed.x - mid.x), abs(reversed.y - mid.y), abs(reversed.z - mid.z)) < 1e-12)
    }

    /// An achromatic stop's hue is powerless: white to blue keeps blue's hue all the way.
    @Test func anAchromaticStopTakesTheOtherHue() throws {
        let gradient = try Self.gradient("linear in oklch white, #0000FF")
        let blueHue = ColorMath.okLCH(okLab: ColorMath.okLab(linearSRGB: SIMD3(0, 0, 1))).z
        for t in [0.25, 0.5, 0.75] {
            let c = gradient.color(at: t)
            let lch = ColorMath.okLCH(okLab: ColorMath.okLab(linearSRGB: ColorMath.linear(SIMD3(c.x, c.y, c.z))))
            #expect(abs(lch.z - blueHue) < 1e-6, "at \(t): \(lch)")
        }
    }

    /// Premultiplied: a transparent stop lends no colour, so from transparent red to
    /// blue every colour is blue, only less opaque, in every rectangular space. (OKLCH's
    /// hue is not premultiplied, so there the hue still turns from red's: CSS's rule.)
    @Test(arguments: [Gradient.Interpolation.srgb, .linear, .oklab])
    func aTransparentStopLendsNoColour(interpolation: Gradient.Interpolation) throws {
        let gradient = try Self.gradient("linear in \(interpolation.rawValue) rgb(255 0 0 / 0), #0000FF")
        let straight = gradient.straightColor(at: 0.3)
        #expect(abs(straight.red) < 1e-9 && abs(straight.green) < 1e-9 && abs(straight.blue - 1) < 1e-9)
        #expect(abs(straight.alpha - 0.3) < 1e-12)
    }

    /// The fill's text and JSON carry the interpolation; either order of angle and space reads.
    @Test func fillTextCarriesTheInterpolation() throws {
        let fill = try Fill(parsing: "linear in oklch 90deg rgb(255, 0, 0) 0, oklch(0.5 0.1 200) 100%")
        #expect(fill.text == "linear 90 in oklch rgb(255, 0, 0) 0, oklch(0.5 0.1 200) 1")
        #expect(try Fill(parsing: fill.text) == fill)
        #expect(try Fill(parsing: "linear 90 in oklch rgb(255, 0, 0) 0, oklch(0.5 0.1 200) 1") == fill)
        #expect(throws: FillParseError.self) { try Fill(parsing: "linear in hsl red, blue") }
        #expect(throws: FillParseError.self) { try Fill(parsing: "linear in") }
    }

    /// A preset file's gradient says its interpolation; sRGB's is the default, left out.
    @Test func presetFilesCarryTheInterpolation() throws {
        let json = """
            {"colors": ["red"], "background": {"type": "linear", "interpolation": "oklch",
                                               "stops": [{"color": "oklch(0.6 0.2 30)"}, {"color": "navy"}]}}
            """
        let preset = try Preset(json: Array(json.utf8), file: "p.json")
        #expect(preset.jsonText.contains("\"interpolation\": \"oklch\""))
        #expect(try Preset(json: Array(preset.jsonText.utf8), file: "again") == preset)
        let plainJSON = #"{"colors": ["red"], "background": {"stops": [{"color": "red"}, {"color": "navy"}]}}"#
        let plain = try Preset(json: Array(plainJSON.utf8), file: "p")
        #expect(!plain.jsonText.contains("interpolation"))
        let bad = #"{"colors": ["red"], "background": {"interpolation": "lab", "stops": [{"color": "red"}]}}"#
        #expect(throws: PresetError.self) { try Preset(json: Array(bad.utf8), file: "bad.json") }
    }

    /// The production path tabulates a gradient that bends between its stops; its frame
    /// of a background alone is held to the exact gradient of the reference renderer, at
    /// 16 bits without dither, within 0.5 levels. The table's own bound on a smooth curve
    /// is 0.07 (at the sRGB curve's toe); where gamut mapping clips a channel at 0 the
    /// curve has a kink, which the table's chords cut by up to 0.47 levels (measured:
    /// linear in sRGB, blue at 0 next to the last stop; the mean stays under 0.01). Random stops, some translucent and some far outside sRGB, in
    /// every kind and space. The control: the stops mixed in sRGB instead, which is what
    /// interpolating between the stops alone gives, is far off.
    @Test(arguments: Gradient.Interpolation.allCases.filter { $0 != .srgb }, ColorSpace.allCases)
    func theProductionPathFollowsTheExactGradient(interpolation: Gradient.Interpolation, space: ColorSpace) throws {
        var generator = SplitMix64(seed: 3700 + UInt64(interpolation.rawValue.count))
        for kind in Gradient.Kind.allCases {
            let stops = (0..<3).map { index in
                let lch = SIMD3(
                    0.2 + 0.7 * generator.nextUnit(), 0.35 * generator.nextUnit(), 360 * generator.nextUnit())
                let alpha = index == 1 ? 0.3 + 0.7 * generator.nextUnit() : 1
                let color = try! RGBA(parsing: "oklch(\(lch.x) \(lch.y) \(lch.z) / \(alpha))")
                return (location: Double(index) / 2, color: color)
            }
            let gradient = try Gradient(kind: kind, angle: 360 * generator.nextUnit(), stops: stops)
            var bent = gradient
            bent.interpolation = interpolation
            let error = Self.backgroundError(bent, against: bent, space: space)
            #expect(error < 0.5, "\(kind) \(interpolation) in \(space): \(error) levels")
            let control = Self.backgroundError(bent, against: gradient, space: space)
            #expect(control > 1, "\(kind) \(interpolation): the sRGB mix is only \(control) levels off")
        }
    }

    /// The largest difference, in 8-bit levels at 16 bits, between the production path's
    /// frame of `rendered` alone and the reference renderer's of `exact`.
    static func backgroundError(_ rendered: Gradient, against exact: Gradient, space: ColorSpace) -> Double {
        let spec = FrameSpec(
            width: 120, height: 68, blurExponent: 0.5, background: .gradient(rendered), colorSpace: space)
        var exactSpec = spec
        exactSpec.background = .gradient(exact)
        let root = Scene(base: [])
        let reference = ReferenceRenderer.render(root, spec: exactSpec, threads: 2)
        var sixteen = PixelBuffer(width: 120, height: 68, format: .packed(depth: 16, alpha: true))
        FrameRenderer(spec: spec, threads: 2).render(root, dither: false, into: &sixteen)
        return errorAgainstReference(sixteen, reference).max
    }
}
