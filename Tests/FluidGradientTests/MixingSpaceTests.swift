import FluidGradient
import Foundation
import Testing

/// DESIGN section 13's mixing spaces: the conversions against CSS Color 4's published
/// values, and the production path against the reference renderer in every mode.
@Suite struct MixingSpaceTests {
    /// CSS Color 4's sample values (section 9, OKLab): sRGB red, green and blue, white and
    /// black in OKLab, to the 5 decimals the spec prints.
    @Test func okLabOfThePrimariesMatchesCSSColor4() {
        let mixing = Mixing(.oklab, frame: .srgb)
        let samples: [(SIMD3<Double>, SIMD3<Double>)] = [
            (SIMD3(1, 0, 0), SIMD3(0.62796, 0.22486, 0.12585)),
            (SIMD3(0, 1, 0), SIMD3(0.86644, -0.23389, 0.1795)),
            (SIMD3(0, 0, 1), SIMD3(0.45201, -0.03246, -0.31153)),
            (SIMD3(1, 1, 1), SIMD3(1, 0, 0)),
            (SIMD3(0, 0, 0), SIMD3(0, 0, 0)),
        ]
        for (rgb, lab) in samples {
            let got = mixing.into(rgb)
            #expect(abs(got - lab).max() < 6e-5, "\(rgb): \(got)")
        }
    }

    /// Into a mixing space and back gives the colour again, in both frame spaces, for
    /// seeded random colours.
    @Test(arguments: MixingSpace.allCases, ColorSpace.allCases)
    func conversionsRoundTrip(space: MixingSpace, frame: ColorSpace) {
        let mixing = Mixing(space, frame: frame)
        var generator = SplitMix64(seed: 37)
        for _ in 0..<1000 {
            let c = SIMD3(generator.nextUnit(), generator.nextUnit(), generator.nextUnit())
            let alpha = generator.nextUnit()
            #expect(abs(mixing.outOf(mixing.into(c)) - c).max() < 1e-9)
            let p = SIMD4(c * alpha, alpha)
            #expect(abs(mixing.premultipliedOutOf(mixing.premultipliedInto(p)) - p).max() < 1e-9)
        }
    }

    /// Half red and half green, blurred: sRGB mixing gives the familiar dark middle,
    /// linear light a brighter one, and OKLab the mean of the two lightnesses CSS Color 4
    /// publishes (0.62796 and 0.86644).
    @Test func halfwayBetweenTwoColoursIsTheMeanInTheMixingSpace() {
        let red = SIMD3<Double>(1, 0, 0), green = SIMD3<Double>(0, 1, 0)
        for space in MixingSpace.allCases {
            let mixing = Mixing(space, frame: .srgb)
            let middle = mixing.outOf((mixing.into(red) + mixing.into(green)) / 2)
            switch space {
            case .srgb: #expect(middle == SIMD3(0.5, 0.5, 0))
            case .linear: #expect(abs(middle.x - ColorMath.encoded(0.5)) < 1e-12)
            case .oklab:
                let lightness = Mixing(.oklab, frame: .srgb).into(middle).x
                #expect(abs(lightness - (0.62796 + 0.86644) / 2) < 1e-4)
                #expect(middle.x > 0.5 && middle.y > 0.5)
            }
        }
    }
}
