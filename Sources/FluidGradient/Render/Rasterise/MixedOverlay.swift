import Foundation

/// The production path's overlay of layers mixed outside sRGB (DESIGN section 13), in
/// `Float`: ``BlendMode/composite(source:backdrop:)``'s mixed overlays with the sRGB
/// curve read from tables both ways and OKLab's matrices in `Float`.
///
/// Each curve is a table of ``size`` steps over 0...1, read with linear interpolation: the
/// encoding curve errs by at most `h²/8·|f″|`, about 2·10⁻⁵ (0.005 levels) just above
/// its linear toe, the decoding curve by under 10⁻⁷. Inputs are clamped to 0...1 first:
/// the colours are inside the frame's gamut, and the blend of two such colours is too.
struct MixedOverlay {
    /// Steps of each curve's table.
    static let size = 4096
    /// The sRGB curve's decoding (encoded → linear) and encoding (linear → encoded), at
    /// ``size`` + 1 even steps and one more, equal to the last, for the slope at 1.
    static let decoding = table(ColorMath.linear)
    static let encoding = table(ColorMath.encoded)

    static let linear = MixedOverlay(Mixing(.linear, frame: .srgb))
    static let oklab = MixedOverlay(Mixing(.oklab, frame: .srgb))
    static let oklabDisplayP3 = MixedOverlay(Mixing(.oklab, frame: .displayP3))

    let isOKLab: Bool
    /// Linear light → LMS, cube roots → OKLab, and back, as `Float` rows.
    let toLMS: FloatMatrix
    let toLab: FloatMatrix
    let toRoots: FloatMatrix
    let toLinear: FloatMatrix

    private init(_ mixing: Mixing) {
        isOKLab = mixing.space == .oklab
        toLMS = FloatMatrix(mixing.linearToLMS)
        toLab = FloatMatrix(ColorMath.lmsRootsToOKLab)
        toRoots = FloatMatrix(ColorMath.okLabToLMSRoots)
        toLinear = FloatMatrix(mixing.lmsToLinear)
    }

    /// The overlay `mode` evaluates, when it is a mixed one.
    static func of(_ mode: BlendMode) -> MixedOverlay? {
        switch mode {
        case .overlayLinear: return linear
        case .overlayOKLab: return oklab
        case .overlayOKLabDisplayP3: return oklabDisplayP3
        case .normal, .overlay: return nil
        }
    }

    private static func table(_ curve: (Double) -> Double) -> [Float] {
        (0...size + 1).map { Float(curve(Double(min($0, size)) / Double(size))) }
    }

    @inline(__always)
    private static func read(_ table: [Float], _ v: Float) -> Float {
        let position = min(max(v, 0), 1) * Float(size)
        let step = Int(position)
        let fraction = position - Float(step)
        return table.withUnsafeBufferPointer { $0[step] + fraction * ($0[step + 1] - $0[step]) }
    }

    /// A straight colour of the frame's encoded values in the mixing space.
    @inline(__always)
    func into(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let d = MixedOverlay.decoding
        let linear = SIMD3(MixedOverlay.read(d, c.x), MixedOverlay.read(d, c.y), MixedOverlay.read(d, c.z))
        guard isOKLab else { return linear }
        let lms = toLMS(linear)
        return toLab(SIMD3(cbrtf(lms.x), cbrtf(lms.y), cbrtf(lms.z)))
    }

    /// A straight colour of the mixing space as the frame's encoded values.
    @inline(__always)
    func outOf(_ m: SIMD3<Float>) -> SIMD3<Float> {
        var linear = m
        if isOKLab {
            let roots = toRoots(m)
            linear = toLinear(roots * roots * roots)
        }
        let e = MixedOverlay.encoding
        return SIMD3(MixedOverlay.read(e, linear.x), MixedOverlay.read(e, linear.y), MixedOverlay.read(e, linear.z))
    }

    /// Premultiplied `source` overlaid onto premultiplied `backdrop`, both in the mixing
    /// space: section 4's formula with its blend `B(Cb, Cs)` on encoded values.
    @inline(__always)
    func composite(source s: SIMD4<Float>, backdrop b: SIMD4<Float>) -> SIMD4<Float> {
        var out = s * (1 - b.w) + b * (1 - s.w)
        if s.w > 0, b.w > 0 {
            let cs = outOf(SIMD3(s.x, s.y, s.z) / s.w), cb = outOf(SIMD3(b.x, b.y, b.z) / b.w)
            let multiply = 2 * cs * cb
            let screen = 1 - 2 * (1 - cs) * (1 - cb)
            let blended = screen.replacing(with: multiply, where: cb .<= 0.5)
            let term = into(blended) * (s.w * b.w)
            out += SIMD4(term, 0)
        }
        out.w = s.w + b.w * (1 - s.w)
        return out
    }
}

/// A 3×3 matrix in `Float`, by rows.
struct FloatMatrix {
    let r0: SIMD3<Float>, r1: SIMD3<Float>, r2: SIMD3<Float>

    init(_ m: ColorMatrix) {
        r0 = SIMD3<Float>(m.rows.0)
        r1 = SIMD3<Float>(m.rows.1)
        r2 = SIMD3<Float>(m.rows.2)
    }

    @inline(__always)
    func callAsFunction(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3((r0 * v).sum(), (r1 * v).sum(), (r2 * v).sum())
    }
}
