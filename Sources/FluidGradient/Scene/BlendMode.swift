/// How a layer's pixels combine with what lies beneath them: the two blends a frame
/// uses (DESIGN section 1), each a separable mode of W3C Compositing and Blending
/// Level 1 followed by source-over.
///
/// With `Cs`, `Cb` the unpremultiplied source and backdrop colours, `αs`, `αb` their
/// alphas and `B` the mode's blend function:
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)     (premultiplied)
///     αo = αs + αb·(1 − αs)
///
/// which is DESIGN section 4's `Cs' = (1 − αb)·Cs + αb·B(Cb, Cs)` then source-over.
/// Compositing happens on gamma-encoded sRGB values, as CoreAnimation does.
///
/// DESIGN section 4 lets the other separable modes in only "if they are offered"; no
/// preset key, flag or API offers one, so the engine has none.
package enum BlendMode: String, CaseIterable, Sendable {
    /// `B = Cs`: plain source-over. Every blob blends so onto its layer.
    case normal
    /// `B = 2·Cs·Cb` if `Cb ≤ 0.5`, else `1 − 2·(1 − Cs)·(1 − Cb)`. The highlight layer
    /// blends so onto the base layer.
    case overlay
    /// Overlay of layers mixed in linear light (DESIGN section 13): `B` is evaluated on
    /// the gamma-encoded values and brought back into linear light.
    case overlayLinear
    /// Overlay of layers mixed in OKLab, in an sRGB frame: `B` on sRGB's encoded values.
    case overlayOKLab
    /// Overlay of layers mixed in OKLab, in a Display P3 frame: `B` on P3's encoded values.
    case overlayOKLabDisplayP3

    /// Whether the premultiplied result is affine in the premultiplied source with the
    /// backdrop fixed: no branch or ratio on the source colour. The mixed overlays
    /// convert the source's colour, so they are not.
    package var isAffineInSource: Bool { self == .normal || self == .overlay }

    /// Whether the premultiplied result is affine in the premultiplied backdrop with the
    /// source fixed: overlay branches on the backdrop's colour.
    package var isAffineInBackdrop: Bool { self == .normal }

    /// Composites premultiplied `source` onto premultiplied `backdrop`.
    @inlinable @inline(__always)
    package func composite<T>(source s: SIMD4<T>, backdrop b: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        let alphaS = s.w, alphaB = b.w
        switch self {
        case .normal:
            return s + b * (1 - alphaS)
        case .overlay:
            var out = s * (1 - alphaB) + b * (1 - alphaS) + BlendMode.overlayTerm(source: s, backdrop: b)
            out.w = alphaS + alphaB * (1 - alphaS)
            return out
        case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3:
            var out = s * (1 - alphaB) + b * (1 - alphaS) + mixedOverlayTerm(source: s, backdrop: b)
            out.w = alphaS + alphaB * (1 - alphaS)
            return out
        }
    }

    /// `αs·αb·B` for overlay, written on premultiplied values: `2·cs·cb` where the
    /// backdrop's colour is at most ½, otherwise `αs·αb − 2·(αs − cs)·(αb − cb)`.
    @inlinable @inline(__always)
    static func overlayTerm<T>(source s: SIMD4<T>, backdrop b: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        if T.self == Float.self {
            // The concrete Float comparison is one vector instruction; the generic one goes lane by lane
            // through memory.
            let term = overlayTerm(
                source: unsafeBitCast(s, to: SIMD4<Float>.self), backdrop: unsafeBitCast(b, to: SIMD4<Float>.self))
            return unsafeBitCast(term, to: SIMD4<T>.self)
        }
        let multiply = 2 * s * b
        let screen = s.w * b.w - 2 * (s.w - s) * (b.w - b)
        var term = screen.replacing(with: multiply, where: 2 * b .<= SIMD4<T>(repeating: b.w))
        term.w = 0
        return term
    }

    /// The same term for `Float`, through the concrete vector comparison.
    @inlinable @inline(__always)
    static func overlayTerm(source s: SIMD4<Float>, backdrop b: SIMD4<Float>) -> SIMD4<Float> {
        let multiply = 2 * s * b
        let screen = s.w * b.w - 2 * (s.w - s) * (b.w - b)
        var term = screen.replacing(with: multiply, where: 2 * b .<= SIMD4<Float>(repeating: b.w))
        term.w = 0
        return term
    }

    /// The mixing of an overlay that is evaluated on encoded values.
    private var overlayMixing: Mixing {
        switch self {
        case .overlayOKLab: return Mixing(.oklab, frame: .srgb)
        case .overlayOKLabDisplayP3: return Mixing(.oklab, frame: .displayP3)
        default: return Mixing(.linear, frame: .srgb)
        }
    }

    /// `αs·αb·B` for an overlay of colours in a mixing space: `B(Cb, Cs)` on the colours'
    /// encoded values, brought back into the mixing space.
    @inlinable
    func mixedOverlayTerm<T>(source s: SIMD4<T>, backdrop b: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        guard s.w > 0, b.w > 0 else { return .zero }
        let mixing = overlayMixing
        let cs = mixing.outOf(SIMD3(Double(s.x), Double(s.y), Double(s.z)) / Double(s.w))
        let cb = mixing.outOf(SIMD3(Double(b.x), Double(b.y), Double(b.z)) / Double(b.w))
        var blended = SIMD3<Double>.zero
        for i in 0..<3 {
            blended[i] = cb[i] <= 0.5 ? 2 * cs[i] * cb[i] : 1 - 2 * (1 - cs[i]) * (1 - cb[i])
        }
        let term = mixing.into(blended) * Double(s.w * b.w)
        return SIMD4(T(term.x), T(term.y), T(term.z), 0)
    }
}
