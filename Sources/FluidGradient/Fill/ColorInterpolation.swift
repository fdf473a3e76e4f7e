import Foundation

extension Gradient.Interpolation {
    /// The colour a fraction `u` of the way from `a` to `b`, by CSS Color 4's
    /// interpolation (its section 12): both converted into this space, premultiplied by
    /// their alpha (all but OKLCH's hue), mixed linearly, and unpremultiplied. In OKLCH
    /// the hue goes the shorter way round, and the hue of an achromatic colour, which is
    /// powerless, takes the other colour's.
    ///
    /// - Parameters:
    ///   - a: the colour at `u = 0`.
    ///   - b: the colour at `u = 1`.
    ///   - u: how far from `a` to `b`.
    /// - Returns: the colour, premultiplied, in extended sRGB.
    package func mix(_ a: RGBA, _ b: RGBA, at u: Double) -> SIMD4<Double> {
        var from = coordinates(a), to = coordinates(b)
        if self == .oklch { Self.alignHues(&from, &to) }
        let mixed = premultiplied(from) + (premultiplied(to) - premultiplied(from)) * u
        let alpha = mixed.w
        guard alpha > 0 else { return .zero }
        var straight = mixed / alpha
        if self == .oklch { straight.z = mixed.z }
        let srgb = Self.srgb(SIMD3(straight.x, straight.y, straight.z), from: self)
        return SIMD4(srgb * alpha, alpha)
    }

    /// A colour's three coordinates in this space and its alpha; an OKLCH hue is NaN
    /// where it is powerless.
    func coordinates(_ color: RGBA) -> SIMD4<Double> {
        let srgb = SIMD3(color.red, color.green, color.blue)
        let coordinates: SIMD3<Double>
        switch self {
        case .srgb: coordinates = srgb
        case .linear: coordinates = ColorMath.linear(srgb)
        case .oklab: coordinates = ColorMath.okLab(linearSRGB: ColorMath.linear(srgb))
        case .oklch: coordinates = ColorMath.okLCH(okLab: ColorMath.okLab(linearSRGB: ColorMath.linear(srgb)))
        }
        return SIMD4(coordinates, color.alpha)
    }

    /// Coordinates multiplied by alpha: all three, or in OKLCH lightness and chroma.
    private func premultiplied(_ c: SIMD4<Double>) -> SIMD4<Double> {
        var p = c * c.w
        p.w = c.w
        if self == .oklch { p.z = c.z }
        return p
    }

    /// Gives a powerless hue the other colour's, and moves one hue by a turn so that the
    /// two are at most 180° apart (CSS Color 4's `shorter` hue interpolation).
    static func alignHues(_ a: inout SIMD4<Double>, _ b: inout SIMD4<Double>) {
        switch (a.z.isNaN, b.z.isNaN) {
        case (true, true): (a.z, b.z) = (0, 0)
        case (true, false): a.z = b.z
        case (false, true): b.z = a.z
        case (false, false): break
        }
        let difference = b.z - a.z
        if difference > 180 {
            a.z += 360
        } else if difference < -180 {
            b.z += 360
        }
    }

    /// Coordinates of `space` back to gamma-encoded, extended sRGB.
    static func srgb(_ c: SIMD3<Double>, from space: Self) -> SIMD3<Double> {
        switch space {
        case .srgb: return c
        case .linear: return ColorMath.encoded(c)
        case .oklab: return ColorMath.encoded(ColorMath.linearSRGB(okLab: c))
        case .oklch: return ColorMath.encoded(ColorMath.linearSRGB(okLab: ColorMath.okLab(okLCH: c)))
        }
    }
}
