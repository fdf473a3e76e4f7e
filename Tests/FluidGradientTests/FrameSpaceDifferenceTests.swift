import FluidGradient
import Testing

/// Frames of two colour spaces compared (DESIGN section 13, `compare`): in Display P3,
/// which holds both, the sRGB side's colours converted into it.
@Suite struct FrameSpaceDifferenceTests {
    static func randomSamples(seed: UInt64, space: ColorSpace) -> FrameSamples {
        var generator = SplitMix64(seed: seed)
        let values = (0..<(4 * 16 * 9)).map { $0 % 4 == 3 ? 1 : Float(generator.nextUnit()) }
        return FrameSamples(width: 16, height: 9, values: values, colorSpace: space)
    }

    /// sRGB into Display P3 and back is the identity (to float rounding), and an sRGB frame
    /// against its own Display P3 conversion differs by nothing; the control, the same
    /// values merely labelled Display P3, differs by many levels.
    @Test func framesOfTwoSpacesCompareInDisplayP3() {
        let srgb = Self.randomSamples(seed: 37, space: .srgb)
        let p3 = srgb.converted(to: .displayP3)
        let back = p3.converted(to: .srgb)
        #expect(zip(srgb.values, back.values).allSatisfy { abs($0 - $1) < 1e-5 })
        #expect(FrameDifference(expected: p3, actual: srgb, tolerance: 0).largest < 0.01)
        let mislabelled = FrameSamples(width: 16, height: 9, values: srgb.values, colorSpace: .displayP3)
        #expect(FrameDifference(expected: mislabelled, actual: srgb, tolerance: 0).largest > 10)
    }

    /// Two Display P3 frames compare on their own values, with their ΔE taken through
    /// Display P3's matrices: P3's green against sRGB's green, both written in P3, is far
    /// apart, as the colours are.
    @Test func displayP3FramesCompareTheirOwnValues() {
        let green = FrameSamples(width: 1, height: 1, values: [0, 1, 0, 1], colorSpace: .displayP3)
        let srgbGreen = FrameSamples(width: 1, height: 1, values: [0, 1, 0, 1], colorSpace: .srgb).converted(
            to: .displayP3)
        let difference = FrameDifference(expected: green, actual: srgbGreen, tolerance: 0)
        #expect(difference.largest > 50 && difference.largestDeltaE > 0.05)
    }
}
