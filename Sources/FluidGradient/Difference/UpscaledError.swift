import Foundation

/// How far a smaller frame, scaled up bilinearly as a player shows it, is from the
/// full-size frame: the sum of squared differences and the largest one, over the
/// channels that count.
///
/// This is the measure of a bundle's manifest and of the delivery targets: PSNR over RGB
/// for an opaque frame (an opaque alpha channel, always right, would add 1.25 dB), and
/// over premultiplied RGBA for a transparent one. It skips what ``FrameDifference`` adds
/// (ΔE, the worst pixel, an upscaled copy), which costs a 1080p frame over half a second.
package struct UpscaledError: Sendable, Equatable {
    /// The sum of squared differences, in units of full scale (1 = 255 levels).
    package private(set) var sumOfSquares: Double = 0
    /// How many samples were compared.
    package private(set) var samples: Int = 0
    /// The largest difference in any channel, in 8-bit levels.
    package private(set) var largest: Double = 0

    /// No samples yet: add frames with ``add(_:)``.
    package init() {}

    /// Measures `small`, scaled up to `expected`'s size, against `expected`.
    ///
    /// - Parameters:
    ///   - expected: the full-size frame.
    ///   - small: a frame at most as large in each side (the same size compares directly).
    ///   - includeAlpha: whether the alpha channel counts; for opaque frames it does not.
    package init(expected: FrameSamples, small: FrameSamples, includeAlpha: Bool) {
        precondition(small.width <= expected.width && small.height <= expected.height, "the small frame is larger")
        var source: [SIMD4<Float>] = []
        source.reserveCapacity(small.width * small.height)
        for y in 0..<small.height {
            for x in 0..<small.width { source.append(small.premultiplied(x: x, y: y)) }
        }
        let columns = BilinearTaps(source: small.width, target: expected.width)
        let rows = BilinearTaps(source: small.height, target: expected.height)
        let mask: SIMD4<Float> = includeAlpha ? SIMD4(1, 1, 1, 1) : SIMD4(1, 1, 1, 0)
        var squares = 0.0, largest: Float = 0
        for y in 0..<expected.height {
            let (top, bottom, down) = rows[y]
            var rowSquares: Float = 0
            for x in 0..<expected.width {
                let (left, right, across) = columns[x]
                let a = source[top * small.width + left], b = source[top * small.width + right]
                let c = source[bottom * small.width + left], d = source[bottom * small.width + right]
                let upper = a + (b - a) * across, lower = c + (d - c) * across
                let difference = (upper + (lower - upper) * down - expected.premultiplied(x: x, y: y)) * mask
                rowSquares += (difference * difference).sum()
                largest = Swift.max(largest, pointwiseMax(difference, -difference).max())
            }
            squares += Double(rowSquares)
        }
        sumOfSquares = squares
        samples = expected.width * expected.height * (includeAlpha ? 4 : 3)
        self.largest = Double(largest) * 255
    }

    /// Adds another frame's measure, as for several instants of one loop.
    package mutating func add(_ other: UpscaledError) {
        sumOfSquares += other.sumOfSquares
        samples += other.samples
        largest = max(largest, other.largest)
    }

    /// Peak signal-to-noise ratio in dB over every sample added; infinite when equal.
    package var psnr: Double {
        guard samples > 0, sumOfSquares > 0 else { return .infinity }
        return 10 * log10(Double(samples) / sumOfSquares)
    }
}
