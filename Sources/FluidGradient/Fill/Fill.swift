/// What fills an area: one colour or a gradient (the seed's `ShapeStyle`).
/// Today the background is a fill; blobs stay single-colour radials.
public enum Fill: Hashable, Sendable {
    /// One colour.
    case color(RGBA)
    /// A linear, radial or conic gradient.
    case gradient(Gradient)

    /// The premultiplied colour at pixel-space point `(x, y)` of a `width × height` frame,
    /// as `space` writes it (gamma-encoded, inside its gamut).
    package func color(
        x: Double, y: Double, width: Double, height: Double, in space: ColorSpace = .srgb
    ) -> SIMD4<Double> {
        switch self {
        case .color(let color):
            return color.inColorSpace(space).premultiplied
        case .gradient(let gradient):
            return gradient.color(at: gradient.parameter(x: x, y: y, width: width, height: height), in: space)
        }
    }

    package var isOpaque: Bool {
        switch self {
        case .color(let color): return color.isOpaque
        case .gradient(let gradient): return gradient.isOpaque
        }
    }
}
