import Foundation

/// The space a frame's layers are composited and blurred in (DESIGN section 13):
/// steps 2–5 of section 1 happen there, premultiplied, and the result is converted back
/// to the frame's gamma-encoded values before grain and quantisation.
package enum MixingSpace: String, CaseIterable, Sendable {
    /// Gamma-encoded values, as CoreAnimation and the W3C compositing spec mix: the default.
    case srgb
    /// Linear light of the frame's space: physically additive, brighter where colours meet.
    case linear
    /// OKLab: perceptually even, no grey dead zone between complementary colours.
    case oklab
}

/// The conversions between a frame's gamma-encoded values and its mixing space: exact,
/// in `Double`, for the reference renderer, the colours a scene is compiled with and the
/// overlay blend (evaluated on encoded values whatever the mixing space).
package struct Mixing: Hashable, Sendable {
    package let space: MixingSpace
    package let frame: ColorSpace

    package init(_ space: MixingSpace, frame: ColorSpace) {
        self.space = space
        self.frame = frame
    }

    /// Whether the layers mix in the encoded values themselves: nothing to convert.
    package var isIdentity: Bool { space == .srgb }

    /// The frame's linear light to OKLab's LMS cone responses.
    package var linearToLMS: ColorMatrix { frame == .srgb ? Mixing.srgbToLMS : Mixing.p3ToLMS }

    /// OKLab's LMS cone responses to the frame's linear light.
    package var lmsToLinear: ColorMatrix { frame == .srgb ? Mixing.lmsToSRGB : Mixing.lmsToP3 }

    private static let srgbToLMS = ColorMath.xyzToLMS.after(ColorMath.linearSRGBToXYZ)
    private static let p3ToLMS = ColorMath.xyzToLMS.after(ColorMath.linearP3ToXYZ)
    private static let lmsToSRGB = ColorMath.xyzToLinearSRGB.after(ColorMath.lmsToXYZ)
    private static let lmsToP3 = ColorMath.xyzToLinearP3.after(ColorMath.lmsToXYZ)

    /// An encoded colour of the frame's space in the mixing space.
    package func into(_ c: SIMD3<Double>) -> SIMD3<Double> {
        switch space {
        case .srgb: return c
        case .linear: return ColorMath.linear(c)
        case .oklab:
            let lms = linearToLMS(ColorMath.linear(c))
            return ColorMath.lmsRootsToOKLab(SIMD3(cbrt(lms.x), cbrt(lms.y), cbrt(lms.z)))
        }
    }

    /// A colour of the mixing space as the frame's encoded values.
    package func outOf(_ m: SIMD3<Double>) -> SIMD3<Double> {
        switch space {
        case .srgb: return m
        case .linear: return ColorMath.encoded(m)
        case .oklab:
            let roots = ColorMath.okLabToLMSRoots(m)
            return ColorMath.encoded(lmsToLinear(roots * roots * roots))
        }
    }

    /// A premultiplied encoded colour, premultiplied in the mixing space.
    package func premultipliedInto(_ p: SIMD4<Double>) -> SIMD4<Double> {
        guard !isIdentity, p.w > 0 else { return isIdentity ? p : .zero }
        let c = into(SIMD3(p.x, p.y, p.z) / p.w) * p.w
        return SIMD4(c, p.w)
    }

    /// A premultiplied colour of the mixing space, premultiplied in encoded values.
    package func premultipliedOutOf(_ p: SIMD4<Double>) -> SIMD4<Double> {
        guard !isIdentity, p.w > 0 else { return isIdentity ? p : .zero }
        let c = outOf(SIMD3(p.x, p.y, p.z) / p.w) * p.w
        return SIMD4(c, p.w)
    }

    /// The blend mode that composites `mode` in this space: the same, except that an
    /// overlay outside sRGB mixing evaluates its blend on encoded values (DESIGN section 13).
    package func blendMode(_ mode: BlendMode) -> BlendMode {
        guard mode == .overlay, !isIdentity else { return mode }
        switch (space, frame) {
        case (.oklab, .srgb): return .overlayOKLab
        case (.oklab, .displayP3): return .overlayOKLabDisplayP3
        default: return .overlayLinear
        }
    }
}
