/// One radial blob: the `CAGradientLayer` radial gradient of the original, with
/// stops 0 / 0.9 / 1 (DESIGN section 2).
///
/// Geometry is in unit space: x is scaled by the frame's width W and y by its
/// height H, so the look scales with the frame.
public struct Blob: Hashable, Sendable {
    /// The blob's colour.
    public var color: RGBA
    /// `(cx, cy)` in unit space.
    public var center: SIMD2<Double>
    /// `(rx, ry)` in unit space; the sign is ignored and zero draws nothing.
    public var radius: SIMD2<Double>
    /// The opacity the colour is multiplied by, 0...1.
    public var opacity: Double

    /// A blob from its colour and geometry.
    ///
    /// - Parameters:
    ///   - color: The colour.
    ///   - center: `(cx, cy)` in unit space: `(0, 0)` is the frame's top-left corner,
    ///     `(1, 1)` its bottom-right.
    ///   - radius: `(rx, ry)` in unit space: `rx` in frame widths, `ry` in frame heights.
    ///   - opacity: 0...1; opaque when left out.
    public init(color: RGBA, center: SIMD2<Double>, radius: SIMD2<Double>, opacity: Double = 1) {
        self.color = color
        self.center = center
        self.radius = radius
        self.opacity = opacity
    }

    /// Feathered coverage of the 0 / 0.9 / 1 stops at normalised distance `d`:
    /// 1 for `d ≤ 0.9`, `(1 − d)/0.1` for `0.9 < d < 1`, and 0 for `d ≥ 1`.
    @inlinable
    package static func coverage<T: BinaryFloatingPoint>(normalizedDistance d: T) -> T {
        if d <= 0.9 { return 1 }
        if d >= 1 { return 0 }
        return (1 - d) * 10
    }

    /// The normalised distance `d` at pixel-space point `(x, y)` of a `width × height`
    /// frame, or `nil` when a radius is zero (the blob has no area).
    package func normalizedDistance(x: Double, y: Double, width: Double, height: Double) -> Double? {
        let rx = abs(radius.x) * width, ry = abs(radius.y) * height
        guard rx > 0, ry > 0 else { return nil }
        let dx = (x - center.x * width) / rx
        let dy = (y - center.y * height) / ry
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Coverage at pixel-space point `(x, y)`; a blob with a zero radius covers nothing.
    package func coverage(x: Double, y: Double, width: Double, height: Double) -> Double {
        guard let d = normalizedDistance(x: x, y: y, width: width, height: height) else { return 0 }
        return Blob.coverage(normalizedDistance: d)
    }

    /// The blob's premultiplied colour at full coverage: `(rgb·a·opacity, a·opacity)`.
    package var premultipliedColor: SIMD4<Double> {
        color.premultiplied * opacity
    }
}
