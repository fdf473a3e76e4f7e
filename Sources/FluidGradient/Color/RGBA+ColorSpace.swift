extension RGBA {
    /// The straight colour of premultiplied `p`: transparent black where alpha is 0.
    package init(premultiplied p: SIMD4<Double>) {
        guard p.w > 0 else {
            self = .clear
            return
        }
        self.init(red: p.x / p.w, green: p.y / p.w, blue: p.z / p.w, alpha: p.w)
    }

    /// Whether the colour lies inside `space`'s gamut (to far below a 16-bit level).
    package func isInside(_ space: ColorSpace) -> Bool {
        if space == .srgb { return isInsideSRGB }
        let linear = ColorMath.linearSRGBToLinearP3(ColorMath.linear(SIMD3(red, green, blue)))
        return GamutMapping.isInGamut(linear)
    }

    /// The colour as `space` writes it: gamma-encoded channels in 0...1, brought into
    /// the gamut by CSS Color 4's gamut mapping. A colour inside sRGB written to sRGB is
    /// returned unchanged.
    package func inColorSpace(_ space: ColorSpace) -> RGBA {
        if space == .srgb, isInsideSRGB { return self }
        let mapped = GamutMapping.map(srgb: SIMD3(red, green, blue), into: space)
        return RGBA(red: mapped.x, green: mapped.y, blue: mapped.z, alpha: alpha)
    }
}

extension SIMD4<Double> {
    /// A premultiplied extended-sRGB colour as `space` writes it, premultiplied: itself
    /// when it lies inside sRGB and the space is sRGB.
    package func inColorSpace(_ space: ColorSpace) -> SIMD4<Double> {
        let rgb = SIMD3(x, y, z)
        if space == .srgb, all(rgb .>= .zero), all(rgb .<= SIMD3(repeating: w)) { return self }
        guard w > 0 else { return .zero }
        return RGBA(premultiplied: self).inColorSpace(space).premultiplied
    }
}
