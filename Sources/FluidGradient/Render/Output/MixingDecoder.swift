/// The output pass's way back from the mixing space to the frame's encoded values, in
/// `Float`, per pixel.
///
/// The sRGB curve is read from a table of ``tableSize`` steps over 0...1, interpolated
/// linearly: it errs by about `h²/8·|f″|`, largest just above the linear toe
/// (`f″ ≈ 2400` at 0.0031), about 4·10⁻⁶, or 0.001 levels. Values outside 0...1 are
/// clamped first, which quantisation would do to the encoded value anyway (the curve
/// is increasing).
struct MixingDecoder {
    let space: MixingSpace
    /// OKLab to the LMS cube roots, and the cubes to the frame's linear light, by columns.
    let toRoots: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    let toLinear: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The sRGB curve at ``tableSize`` + 1 even steps, and a copy one step on, for the
    /// slope.
    let curve: [Float]

    static let tableSize = 8192

    init(_ mixing: Mixing) {
        space = mixing.space
        toRoots = MixingDecoder.columns(ColorMath.okLabToLMSRoots)
        toLinear = MixingDecoder.columns(mixing.lmsToLinear)
        curve =
            mixing.isIdentity
            ? []
            : (0...MixingDecoder.tableSize + 1).map {
                Float(
                    ColorMath.encoded(
                        min(Double($0), Double(MixingDecoder.tableSize)) / Double(MixingDecoder.tableSize)))
            }
    }

    private static func columns(_ m: ColorMatrix) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let r = m.rows
        return (
            SIMD4(Float(r.0.x), Float(r.1.x), Float(r.2.x), 0), SIMD4(Float(r.0.y), Float(r.1.y), Float(r.2.y), 0),
            SIMD4(Float(r.0.z), Float(r.1.z), Float(r.2.z), 0)
        )
    }

    /// Converts `count` premultiplied mixing-space values in place: to straight encoded
    /// colours with their alpha when `unpremultiply`, otherwise premultiplied again.
    func decode(_ values: UnsafeMutablePointer<SIMD4<Float>>, count: Int, unpremultiply: Bool) {
        curve.withUnsafeBufferPointer { curve in
            let curve = curve.baseAddress!
            for x in 0..<count {
                let p = values[x], alpha = p.w
                guard alpha > 0 else {
                    values[x] = .zero
                    continue
                }
                var c = p / alpha
                if space == .oklab {
                    let roots = toRoots.0 * c.x + toRoots.1 * c.y + toRoots.2 * c.z
                    let cubes = roots * roots * roots
                    c = toLinear.0 * cubes.x + toLinear.1 * cubes.y + toLinear.2 * cubes.z
                }
                var out = SIMD4(encode(c.x, curve), encode(c.y, curve), encode(c.z, curve), 1)
                if !unpremultiply { out *= alpha }
                out.w = alpha
                values[x] = out
            }
        }
    }

    @inline(__always)
    private func encode(_ v: Float, _ curve: UnsafePointer<Float>) -> Float {
        let position = min(max(v, 0), 1) * Float(MixingDecoder.tableSize)
        let step = Int(position)
        let fraction = position - Float(step)
        return curve[step] + fraction * (curve[step + 1] - curve[step])
    }
}
