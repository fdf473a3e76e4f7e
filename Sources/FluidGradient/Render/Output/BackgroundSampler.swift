import Foundation

/// The background fill evaluated row by row at pixel centres, in `Float`.
enum BackgroundSampler {
    case constant(SIMD4<Float>, width: Int)
    case gradient(GradientSampler)

    init(fill: Fill, width: Int, height: Int, space: ColorSpace = .srgb, mixing: MixingSpace = .srgb) {
        let mixing = Mixing(mixing, frame: space)
        switch fill {
        case .color(let color):
            let premultiplied = SIMD4<Double>(color.inColorSpace(space).premultiplied)
            self = .constant(SIMD4<Float>(mixing.premultipliedInto(premultiplied)), width: width)
        case .gradient(let gradient):
            self = .gradient(GradientSampler(gradient: gradient, width: width, height: height, mixing: mixing))
        }
    }

    /// The colour, when the background is one opaque colour.
    var opaqueConstant: SIMD4<Float>? {
        if case .constant(let color, _) = self, color.w >= 1 { return color }
        return nil
    }

    /// Premultiplied background colours of `row`'s pixels.
    @inline(__always)
    func fill(row: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        switch self {
        case .constant(let color, let width):
            out.update(repeating: color, count: width)
        case .gradient(let sampler):
            sampler.fill(row: row, into: out)
        }
    }
}
