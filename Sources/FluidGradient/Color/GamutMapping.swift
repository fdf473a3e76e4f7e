/// CSS Color Module Level 4's gamut mapping (its section 13.2, "CSS gamut mapping to an
/// RGB destination"): a colour outside the destination's gamut keeps its OKLCH lightness
/// and hue, and its chroma is reduced by binary search until clipping it moves it less
/// than a just-noticeable difference (deltaEOK 0.02).
package enum GamutMapping {
    /// deltaEOK of a just-noticeable difference.
    package static let jnd = 0.02
    /// The binary search stops when the chroma interval is this narrow.
    static let epsilon = 0.0001
    /// How far past 0...1 a channel may be and still count as inside the gamut: far below
    /// a 16-bit level, far above the matrices' rounding.
    static let inGamutSlack = 1e-9

    /// The colour with gamma-encoded, possibly extended, sRGB channels `srgb` in `space`:
    /// gamma-encoded channels in 0...1.
    ///
    /// A colour already inside sRGB and written to sRGB comes back unchanged, bit for bit.
    ///
    /// - Parameters:
    ///   - srgb: gamma-encoded sRGB channels, below 0 or above 1 outside sRGB's gamut.
    ///   - space: the destination.
    /// - Returns: the destination's gamma-encoded channels, each in 0...1.
    package static func map(srgb: SIMD3<Double>, into space: ColorSpace) -> SIMD3<Double> {
        let zero = SIMD3<Double>.zero, one = SIMD3<Double>.one
        if space == .srgb, all(srgb .>= zero), all(srgb .<= one) { return srgb }
        let linear = ColorMath.linear(srgb)
        let destination = destinationLinear(linear, space)
        if isInGamut(destination) { return clip(ColorMath.encoded(destination)) }
        let okLab = ColorMath.okLab(linearSRGB: linear)
        if okLab.x >= 1 { return one }
        if okLab.x <= 0 { return zero }
        return ColorMath.encoded(mapLinear(okLCH: ColorMath.okLCH(okLab: okLab), into: space))
    }

    /// An OKLCH colour in `space`'s linear light, clipped into 0...1, by CSS's binary
    /// search on the chroma; the colour must be outside the gamut, with 0 < L < 1.
    private static func mapLinear(okLCH origin: SIMD3<Double>, into space: ColorSpace) -> SIMD3<Double> {
        func linear(_ lch: SIMD3<Double>) -> SIMD3<Double> {
            destinationLinear(ColorMath.linearSRGB(okLab: ColorMath.okLab(okLCH: lch)), space)
        }
        func clipped(_ lch: SIMD3<Double>) -> (linear: SIMD3<Double>, deltaE: Double) {
            let clipped = clip(linear(lch))
            let back = ColorMath.okLab(linearSRGB: sourceLinear(clipped, space))
            return (clipped, ColorMath.deltaEOK(back, ColorMath.okLab(okLCH: lch)))
        }
        var current = origin
        var result = clipped(current)
        if result.deltaE < jnd { return result.linear }
        var low = 0.0, high = origin.y, lowInGamut = true
        while high - low > epsilon {
            let chroma = (low + high) / 2
            current.y = chroma
            if lowInGamut, isInGamut(linear(current)) {
                low = chroma
                continue
            }
            result = clipped(current)
            if result.deltaE < jnd {
                if jnd - result.deltaE < epsilon { return result.linear }
                lowInGamut = false
                low = chroma
            } else {
                high = chroma
            }
        }
        return result.linear
    }

    private static func destinationLinear(_ linearSRGB: SIMD3<Double>, _ space: ColorSpace) -> SIMD3<Double> {
        space == .srgb ? linearSRGB : ColorMath.linearSRGBToLinearP3(linearSRGB)
    }

    private static func sourceLinear(_ linear: SIMD3<Double>, _ space: ColorSpace) -> SIMD3<Double> {
        space == .srgb ? linear : ColorMath.linearP3ToLinearSRGB(linear)
    }

    /// Whether every channel is in 0...1 (linear and encoded agree on that).
    package static func isInGamut(_ v: SIMD3<Double>) -> Bool {
        all(v .>= SIMD3(repeating: -inGamutSlack)) && all(v .<= SIMD3(repeating: 1 + inGamutSlack))
    }

    private static func clip(_ v: SIMD3<Double>) -> SIMD3<Double> {
        v.clamped(lowerBound: .zero, upperBound: .one)
    }
}
