/// Bilinear upscaling as video players and ffmpeg's `scale=W:H:flags=bilinear` do it:
/// pixel centres aligned, so the centre of output pixel `x` (at `x + 0.5`) samples the
/// source at `(x + 0.5)·sourceWidth/width − 0.5`, between the two nearest source pixel
/// centres; past the first or last centre the edge pixel is repeated (clamped).
///
/// It interpolates premultiplied values (colour × alpha, and alpha), the values
/// ``FrameDifference`` compares, so colours under transparent pixels do not bleed in.
extension FrameSamples {
    /// This frame scaled up to `width` × `height` by bilinear interpolation.
    ///
    /// - Parameters:
    ///   - width: the target width, at least this frame's width.
    ///   - height: the target height, at least this frame's height.
    /// - Returns: the upscaled frame, straight alpha as every ``FrameSamples``; where the
    ///   interpolated alpha is 0 its colour is 0.
    package func upscaledBilinear(width: Int, height: Int) -> FrameSamples {
        precondition(width >= self.width && height >= self.height, "a bilinear upscale needs a larger target")
        let source = premultipliedValues()
        let columns = BilinearTaps(source: self.width, target: width)
        let rows = BilinearTaps(source: self.height, target: height)
        var values = [Float](repeating: 0, count: 4 * width * height)
        for y in 0..<height {
            let (top, bottom, down) = rows[y]
            for x in 0..<width {
                let (left, right, across) = columns[x]
                let upper = mix(source[top * self.width + left], source[top * self.width + right], across)
                let lower = mix(source[bottom * self.width + left], source[bottom * self.width + right], across)
                let pixel = mix(upper, lower, down)
                let alpha = pixel.w
                let offset = 4 * (y * width + x)
                let colour = alpha > 0 ? pixel / alpha : .zero
                values[offset] = colour.x
                values[offset + 1] = colour.y
                values[offset + 2] = colour.z
                values[offset + 3] = alpha
            }
        }
        return FrameSamples(width: width, height: height, values: values, colorSpace: colorSpace)
    }

    /// Every pixel premultiplied, row by row.
    private func premultipliedValues() -> [SIMD4<Float>] {
        var pixels: [SIMD4<Float>] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { pixels.append(premultiplied(x: x, y: y)) }
        }
        return pixels
    }
}

extension FrameDifference {
    /// Compares `small`, scaled up bilinearly to the size of `expected` as a player would
    /// show it, with `expected`: how far an encode at the smaller size can be from the
    /// full-size frame before any codec loss.
    ///
    /// - Parameters:
    ///   - expected: the full-size frame.
    ///   - small: a frame at most as large as `expected` in each side.
    ///   - tolerance: in 8-bit levels, as for ``init(expected:actual:tolerance:)``.
    package init(expected: FrameSamples, upscaling small: FrameSamples, tolerance: Double) {
        let actual = small.upscaledBilinear(width: expected.width, height: expected.height)
        self.init(expected: expected, actual: actual, tolerance: tolerance)
    }
}

/// For each target pixel along one axis, the two source pixels it lies between and the
/// weight of the second.
struct BilinearTaps {
    private let taps: [(first: Int, second: Int, weight: Float)]

    /// - Parameters:
    ///   - source: the source length in pixels, at least 1.
    ///   - target: the target length in pixels, at least `source`.
    init(source: Int, target: Int) {
        taps = (0..<target).map { index in
            // (index + 0.5)·source/target − 0.5 as one rounding, so whole positions are exact.
            let position = Double((2 * index + 1) * source - target) / Double(2 * target)
            let below = position.rounded(.down)
            let first = Int(below)
            let clamp = { (i: Int) in min(max(i, 0), source - 1) }
            return (clamp(first), clamp(first + 1), Float(position - below))
        }
    }

    subscript(index: Int) -> (first: Int, second: Int, weight: Float) { taps[index] }
}

/// `a + (b − a)·t` lane-wise: exactly `a` where `b` equals it, as in a flat region or
/// past the edge, where both taps are the edge pixel.
@inline(__always)
private func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> {
    a + (b - a) * t
}
