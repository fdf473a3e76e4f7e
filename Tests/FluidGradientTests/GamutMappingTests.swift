import FluidGradient
import Foundation
import Testing

/// CSS Color 4's gamut mapping into sRGB and Display P3 (DESIGN section 13). The
/// independent check of the numbers is `Scripts/colour-check.py` (colour-science);
/// these hold the algorithm's own promises.
@Suite struct GamutMappingTests {
    /// A random OKLCH colour, as extended sRGB: lightness 0...1, chroma up to 0.45.
    static func randomColor(_ generator: inout SplitMix64) -> SIMD3<Double> {
        let lch = SIMD3(generator.nextUnit(), 0.45 * generator.nextUnit(), 360 * generator.nextUnit())
        return ColorMath.encoded(ColorMath.linearSRGB(okLab: ColorMath.okLab(okLCH: lch)))
    }

    /// An sRGB colour written to sRGB is not touched, bit for bit: the default frames'
    /// colours never pass through a conversion.
    @Test func leavesSRGBColoursAloneInSRGB() {
        var generator = SplitMix64(seed: 37)
        for _ in 0..<1000 {
            let color = SIMD3(generator.nextUnit(), generator.nextUnit(), generator.nextUnit())
            #expect(GamutMapping.map(srgb: color, into: .srgb) == color)
        }
    }

    /// Every result is inside the gamut; mapping twice changes nothing; and a colour
    /// outside is moved no further than a just-noticeable difference (deltaEOK 0.02) from
    /// its own lightness and hue, at a lower chroma: the line the algorithm searches along,
    /// with its last clip held within the JND.
    @Test(arguments: ColorSpace.allCases)
    func mapsIntoTheGamutAlongLightnessAndHue(space: ColorSpace) {
        var generator = SplitMix64(seed: space == .srgb ? 1 : 2)
        var outside = 0
        for _ in 0..<2000 {
            let color = Self.randomColor(&generator)
            let mapped = GamutMapping.map(srgb: color, into: space)
            #expect(all(mapped .>= .zero) && all(mapped .<= .one), "\(color) to \(mapped)")
            let back = space == .srgb ? mapped : Self.srgb(p3: mapped)
            let again = GamutMapping.map(srgb: back, into: space)
            #expect(Self.largest(again - mapped) < 1e-9, "mapping \(mapped) again gave \(again)")
            let lch = Self.okLCH(color)
            guard lch.x > 0, lch.x < 1, Self.largest(ColorMath.linear(color) - ColorMath.linear(back)) > 1e-9 else {
                continue
            }
            outside += 1
            let distance = Self.distance(Self.okLab(back), toChromaLineOf: lch)
            #expect(distance < GamutMapping.jnd + 1e-6, "\(color) mapped \(distance) from its line")
        }
        #expect(outside > 500, "too few colours outside the gamut to say much: \(outside)")
    }

    /// Display P3 holds all of sRGB: an sRGB colour goes there and back unchanged.
    @Test func displayP3HoldsSRGB() {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<1000 {
            let color = SIMD3(generator.nextUnit(), generator.nextUnit(), generator.nextUnit())
            let p3 = GamutMapping.map(srgb: color, into: .displayP3)
            #expect(Self.largest(Self.srgb(p3: p3) - color) < 1e-12)
        }
        let red = GamutMapping.map(srgb: SIMD3(1, 0, 0), into: .displayP3)
        // sRGB red in Display P3 (CSS Color 4's example: color(display-p3 0.9175 0.2003 0.1386)).
        #expect(Self.largest(red - SIMD3(0.917488, 0.200287, 0.138561)) < 5e-6, "\(red)")
    }

    /// OKLCH lightness at or beyond its ends is white or black, whatever the chroma.
    @Test func lightnessAtTheEndsIsWhiteOrBlack() throws {
        #expect(GamutMapping.map(srgb: try Self.srgb("oklch(1 0.3 40)"), into: .srgb) == .one)
        #expect(GamutMapping.map(srgb: try Self.srgb("oklch(0 0.3 40)"), into: .displayP3) == .zero)
    }

    /// The control: clipping alone, which the algorithm falls back to only within a
    /// just-noticeable difference, moves a far colour well off its line.
    @Test func clippingFarColoursWouldLeaveTheirLine() throws {
        let color = try Self.srgb("oklch(0.7 0.4 250)")
        let lch = Self.okLCH(color)
        let clipped = color.clamped(lowerBound: .zero, upperBound: .one)
        #expect(Self.distance(Self.okLab(clipped), toChromaLineOf: lch) > 0.05)
        let mapped = GamutMapping.map(srgb: color, into: .srgb)
        #expect(Self.distance(Self.okLab(mapped), toChromaLineOf: lch) < GamutMapping.jnd)
    }

    /// OKLab distance from `point` to the colours of `lch`'s lightness and hue with chroma
    /// 0 to its own.
    static func distance(_ point: SIMD3<Double>, toChromaLineOf lch: SIMD3<Double>) -> Double {
        let end = ColorMath.okLab(okLCH: lch), start = SIMD3(lch.x, 0, 0)
        let axis = end - start, length2 = (axis * axis).sum()
        let along = length2 > 0 ? min(max(((point - start) * axis).sum() / length2, 0), 1) : 0
        return ColorMath.deltaEOK(point, start + axis * along)
    }

    static func okLab(_ srgb: SIMD3<Double>) -> SIMD3<Double> { ColorMath.okLab(linearSRGB: ColorMath.linear(srgb)) }

    static func srgb(_ text: String) throws -> SIMD3<Double> {
        let color = try RGBA(parsing: text)
        return SIMD3(color.red, color.green, color.blue)
    }

    static func srgb(p3 encoded: SIMD3<Double>) -> SIMD3<Double> {
        ColorMath.encoded(ColorMath.linearP3ToLinearSRGB(ColorMath.linear(encoded)))
    }

    static func okLCH(_ srgb: SIMD3<Double>) -> SIMD3<Double> {
        ColorMath.okLCH(okLab: ColorMath.okLab(linearSRGB: ColorMath.linear(srgb)))
    }

    static func largest(_ v: SIMD3<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }
}
