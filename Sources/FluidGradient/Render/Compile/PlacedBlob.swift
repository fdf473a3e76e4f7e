import CVectorMath

/// A blob placed in pixel space, in the `Float` form the production path uses.
package struct PlacedBlob {
    var center: SIMD2<Float>
    /// The semi-axes `(|rx|·W, |ry|·H)` in pixels.
    var semiAxes: SIMD2<Float>
    var inverseSemiAxes: SIMD2<Float>
    /// Premultiplied colour at full coverage, with the blob's opacity.
    var color: SIMD4<Float>
    /// Zero radius or fully transparent: draws nothing.
    package var isEmpty: Bool

    /// `blob` placed in a `width × height` frame, its colour in `mixing`'s space.
    package init(blob: Blob, width: Int, height: Int, mixing: Mixing = Mixing(.srgb, frame: .srgb)) {
        let width = Double(width), height = Double(height)
        let semiAxes = SIMD2(Float(abs(blob.radius.x) * width), Float(abs(blob.radius.y) * height))
        let color = SIMD4<Float>(mixing.premultipliedInto(blob.premultipliedColor))
        let isEmpty = !(semiAxes.x > 0 && semiAxes.y > 0) || color == .zero
        self.center = SIMD2(Float(blob.center.x * width), Float(blob.center.y * height))
        self.semiAxes = semiAxes
        self.color = color
        self.isEmpty = isEmpty
        self.inverseSemiAxes = isEmpty ? .zero : 1 / semiAxes
    }

    /// Coverage at pixel-space point `p` (DESIGN section 2): the definition, which the
    /// rasteriser computes from per-row and per-column terms of `d²` instead; tests check
    /// the vector form against it.
    @inline(__always)
    package func coverage(at p: SIMD2<Float>) -> Float {
        let q = (p - center) * inverseSemiAxes
        return PlacedBlob.coverage(squaredDistance: q.x * q.x + q.y * q.y)
    }

    /// Coverage at a normalised squared distance `d² = ((x − cx)/a)² + ((y − cy)/b)²`:
    /// 1 up to d = 0.9, falling linearly to 0 at d = 1.
    @inline(__always)
    package static func coverage(squaredDistance d2: Float) -> Float {
        if d2 <= 0.81 { return 1 }
        if d2 >= 1 { return 0 }
        return (1 - d2.squareRoot()) * 10
    }

    /// ``coverage(squaredDistance:)`` of four squared distances at once, bit for bit.
    @inline(__always)
    package static func coverage(squaredDistances d2: SIMD4<Float>) -> SIMD4<Float> {
        let rim = (1 - fg_square_root4(d2)) * 10
        return rim.replacing(with: 0, where: d2 .>= 1).replacing(with: 1, where: d2 .<= 0.81)
    }
}
