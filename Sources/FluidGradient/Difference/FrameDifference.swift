import Foundation

/// How much two frames of one size differ.
///
/// Values are compared premultiplied (colour × alpha, and alpha), so colours under a
/// transparent pixel, which no one sees, do not count. Differences are in 8-bit levels
/// (1 level = 1/255) whatever the files' depths.
package struct FrameDifference: Sendable, Equatable {
    /// The largest difference in any channel, in 8-bit levels.
    package var largest: Double
    /// Where it is, and in which channel (0 R, 1 G, 2 B, 3 A).
    package var worst: (x: Int, y: Int, channel: Int)
    /// Pixels with some channel more than the tolerance away.
    package var pixelsOverTolerance: Int
    package var pixelCount: Int
    /// Peak signal-to-noise ratio over all channels, in dB (infinite when identical).
    package var psnr: Double
    /// Colour difference as ΔE in OKLab (Euclidean; about 0.02 is just noticeable),
    /// between the colours shown over black.
    package var meanDeltaE: Double
    package var largestDeltaE: Double

    package var shareOverTolerance: Double { pixelCount == 0 ? 0 : Double(pixelsOverTolerance) / Double(pixelCount) }

    /// The share over the tolerance as a percentage with two decimals, never rounded to
    /// 0.00% when a pixel differs or to 100.00% when one does not: `37.50%`, `<0.01%`, `>99.99%`.
    package var percentOverTolerance: String {
        let percent = shareOverTolerance * 100
        if pixelsOverTolerance > 0, percent < 0.005 { return "<0.01%" }
        if pixelsOverTolerance < pixelCount, percent >= 99.995 { return ">99.99%" }
        return String(format: "%.2f%%", percent)
    }

    /// `100·(1 − mean ΔE)`: 100 for the same colours everywhere, 0 for black against white.
    package var score: Double { max(0, 100 * (1 - meanDeltaE)) }

    /// Whether at most `maximumShare` of the pixels (0...1) are over the tolerance.
    package func matches(maximumShare: Double) -> Bool { shareOverTolerance <= maximumShare }

    package static func == (lhs: FrameDifference, rhs: FrameDifference) -> Bool {
        lhs.largest == rhs.largest && lhs.worst == rhs.worst && lhs.pixelsOverTolerance == rhs.pixelsOverTolerance
            && lhs.psnr == rhs.psnr && lhs.meanDeltaE == rhs.meanDeltaE && lhs.largestDeltaE == rhs.largestDeltaE
    }

    /// OKLab of a gamma-encoded Display P3 colour.
    static func okLab(p3 c: SIMD4<Float>) -> SIMD3<Double> {
        let linear = ColorMath.linear(SIMD3(Double(c.x), Double(c.y), Double(c.z)))
        return ColorMath.okLab(linearSRGB: ColorMath.linearP3ToLinearSRGB(linear))
    }

    /// Compares two frames of the same size in their colour space's values; frames of two
    /// spaces are compared in Display P3, which holds both. `tolerance` is in 8-bit levels.
    package init(expected: FrameSamples, actual: FrameSamples, tolerance: Double) {
        precondition(expected.width == actual.width && expected.height == actual.height, "frames differ in size")
        let space: ColorSpace = expected.colorSpace == actual.colorSpace ? expected.colorSpace : .displayP3
        let expected = expected.converted(to: space), actual = actual.converted(to: space)
        var largest = 0.0, worst = (x: 0, y: 0, channel: 0), over = 0
        var squared = 0.0, deltaSum = 0.0, deltaMax = 0.0
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let a = expected.premultiplied(x: x, y: y), b = actual.premultiplied(x: x, y: y)
                let difference = a - b
                var pixelLargest: Float = 0, channel = 0
                for lane in 0..<4 where abs(difference[lane]) > pixelLargest {
                    pixelLargest = abs(difference[lane])
                    channel = lane
                }
                squared += Double((difference * difference).sum())
                let levels = Double(pixelLargest) * 255
                // Samples are whole 8- or 16-bit steps; the slack absorbs float rounding only.
                if levels > tolerance + 1e-3 { over += 1 }
                if levels > largest {
                    largest = levels
                    worst = (x, y, channel)
                }
                if pixelLargest > 0 {
                    let delta =
                        expected.colorSpace == .srgb
                        ? OKLab(red: Double(a.x), green: Double(a.y), blue: Double(a.z))
                            .distance(to: OKLab(red: Double(b.x), green: Double(b.y), blue: Double(b.z)))
                        : ColorMath.deltaEOK(FrameDifference.okLab(p3: a), FrameDifference.okLab(p3: b))
                    deltaSum += delta
                    deltaMax = max(deltaMax, delta)
                }
            }
        }
        let count = expected.width * expected.height
        let meanSquared = squared / Double(4 * count)
        // Samples are whole 8- or 16-bit steps (1/257 of a level): 10⁻⁴ keeps them apart
        // and drops float noise.
        self.largest = (largest * 1e4).rounded() / 1e4
        self.worst = worst
        self.pixelsOverTolerance = over
        self.pixelCount = count
        self.psnr = meanSquared == 0 ? .infinity : 10 * log10(1 / meanSquared)
        self.meanDeltaE = deltaSum / Double(count)
        self.largestDeltaE = deltaMax
    }
}
