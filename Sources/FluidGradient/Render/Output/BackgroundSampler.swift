import Foundation

/// The background fill evaluated row by row at pixel centres, in `Float`.
enum BackgroundSampler {
    case constant(SIMD4<Float>, width: Int)
    case gradient(GradientSampler)

    init(fill: Fill, width: Int, height: Int, space: ColorSpace = .srgb) {
        switch fill {
        case .color(let color):
            self = .constant(SIMD4<Float>(color.inColorSpace(space).premultiplied), width: width)
        case .gradient(let gradient):
            self = .gradient(GradientSampler(gradient: gradient, width: width, height: height, space: space))
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
