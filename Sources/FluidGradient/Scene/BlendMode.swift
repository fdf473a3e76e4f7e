/// How a layer's pixels combine with what lies beneath them.
///
/// All modes are the separable modes of W3C Compositing and Blending Level 1,
/// followed by source-over. With `Cs`, `Cb` the unpremultiplied source and backdrop
/// colours, `αs`, `αb` their alphas and `B` the mode's blend function:
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)     (premultiplied)
///     αo = αs + αb·(1 − αs)
///
/// which is DESIGN section 4's `Cs' = (1 − αb)·Cs + αb·B(Cb, Cs)` then source-over.
/// Compositing happens on gamma-encoded sRGB values, as CoreAnimation does.
package enum BlendMode: String, CaseIterable, Sendable {
    /// `B = Cs`: plain source-over.
    case normal
    /// `B = Cs·Cb`.
    case multiply
    /// `B = Cs + Cb − Cs·Cb`.
    case screen
    /// `B = 2·Cs·Cb` if `Cb ≤ 0.5`, else `1 − 2·(1 − Cs)·(1 − Cb)`: hard light with the
    /// layers swapped. The original's highlight layer uses it.
    case overlay
    /// `B = min(Cs, Cb)`.
    case darken
    /// `B = max(Cs, Cb)`.
    case lighten
    /// `B = overlay(Cs, Cb)`: overlay with the layers swapped.
    case hardLight
    /// The W3C soft-light formula (the `D(Cb)` variant, not Photoshop's).
    case softLight
    /// Overlay of layers mixed in linear light (DESIGN section 13): `B` is evaluated on
    /// the gamma-encoded values and brought back into linear light.
    case overlayLinear
    /// Overlay of layers mixed in OKLab, in an sRGB frame: `B` on sRGB's encoded values.
    case overlayOKLab
    /// Overlay of layers mixed in OKLab, in a Display P3 frame: `B` on P3's encoded values.
    case overlayOKLabDisplayP3

    /// Whether the premultiplied result is affine in the premultiplied source with the
    /// backdrop fixed: no branch or ratio on the source colour.
    package var isAffineInSource: Bool {
        switch self {
        case .normal, .multiply, .screen, .overlay: return true
        case .darken, .lighten, .hardLight, .softLight: return false
        case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3: return false
        }
    }

    /// Whether the premultiplied result is affine in the premultiplied backdrop with the
    /// source fixed.
    package var isAffineInBackdrop: Bool {
        switch self {
        case .normal, .multiply, .screen, .hardLight: return true
        case .darken, .lighten, .overlay, .softLight: return false
        case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3: return false
        }
    }

    /// Composites premultiplied `source` onto premultiplied `backdrop`.
    @inlinable @inline(__always)
    package func composite<T>(source s: SIMD4<T>, backdrop b: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        let alphaS = s.w, alphaB = b.w
        let alphaOut = alphaS + alphaB * (1 - alphaS)
        var out: SIMD4<T>
        switch self {
        case .normal:
            return s + b * (1 - alphaS)
        case .multiply:
            // αs·αb·Cs·Cb = cs·cb
            out = s * (1 - alphaB) + b * (1 - alphaS) + s * b
        case .screen:
            // αs·αb·(Cs + Cb − Cs·Cb) = αb·cs + αs·cb − cs·cb
            out = s + b - s * b
        case .overlay:
            out = s * (1 - alphaB) + b * (1 - alphaS) + BlendMode.hardLightTerm(top: s, bottom: b, switchOn: b)
        case .hardLight:
            out = s * (1 - alphaB) + b * (1 - alphaS) + BlendMode.hardLightTerm(top: s, bottom: b, switchOn: s)
        case .darken:
            // αs·αb·min(Cs, Cb) = min(cs·αb, cb·αs)
            out = s * (1 - alphaB) + b * (1 - alphaS) + pointwiseMin(s * alphaB, b * alphaS)
        case .lighten:
            out = s * (1 - alphaB) + b * (1 - alphaS) + pointwiseMax(s * alphaB, b * alphaS)
        case .softLight:
            out = s * (1 - alphaB) + b * (1 - alphaS) + BlendMode.softLightTerm(source: s, backdrop: b)
        case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3:
            out = s * (1 - alphaB) + b * (1 - alphaS) + mixedOverlayTerm(source: s, backdrop: b)
        }
        out.w = alphaOut
        return out
    }

    /// `αs·αb·B` for hard light, where `switchOn` picks the layer whose colour decides
    /// the branch (`≤ 0.5` multiplies, otherwise screens), written on premultiplied values:
    /// `2·cs·cb`, or `αs·αb − 2·(αs − cs)·(αb − cb)`.
    @inlinable @inline(__always)
    static func hardLightTerm<T>(top s: SIMD4<T>, bottom b: SIMD4<T>, switchOn x: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        if T.self == Float.self {
            // The concrete Float comparison is one vector instruction; the generic one goes lane by lane
            // through memory.
            let term = hardLightTerm(
                top: unsafeBitCast(s, to: SIMD4<Float>.self), bottom: unsafeBitCast(b, to: SIMD4<Float>.self),
                switchOn: unsafeBitCast(x, to: SIMD4<Float>.self))
            return unsafeBitCast(term, to: SIMD4<T>.self)
        }
        let multiply = 2 * s * b
        let screen = s.w * b.w - 2 * (s.w - s) * (b.w - b)
        var term = screen.replacing(with: multiply, where: 2 * x .<= SIMD4<T>(repeating: x.w))
        term.w = 0
        return term
    }

    /// The same term for `Float`, through the concrete vector comparison.
    @inlinable @inline(__always)
    static func hardLightTerm(top s: SIMD4<Float>, bottom b: SIMD4<Float>, switchOn x: SIMD4<Float>) -> SIMD4<Float> {
        let multiply = 2 * s * b
        let screen = s.w * b.w - 2 * (s.w - s) * (b.w - b)
        var term = screen.replacing(with: multiply, where: 2 * x .<= SIMD4<Float>(repeating: x.w))
        term.w = 0
        return term
    }

    /// `αs·αb·B(Cb, Cs)` for W3C soft light, on unpremultiplied colours.
    @inlinable
    static func softLightTerm<T>(source s: SIMD4<T>, backdrop b: SIMD4<T>) -> SIMD4<T>
    where T: BinaryFloatingPoint & SIMDScalar {
        guard s.w > 0, b.w > 0 else { return .zero }
        var term = SIMD4<T>.zero
        for i in 0..<3 {
            let cs = s[i] / s.w, cb = b[i] / b.w
            let blended: T
            if cs <= 0.5 {
                blended = cb - (1 - 2 * cs) * cb * (1 - cb)
            } else {
                let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
                blended = cb + (2 * cs - 1) * (d - cb)
            }
            term[i] = s.w * b.w * blended
        }
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
