import Foundation

/// A decoded frame on a common scale: RGBA in 0...1 per pixel, straight alpha
/// (1 where the source had no alpha channel), whatever its bit depth.
package struct FrameSamples: Sendable {
    package let width: Int
    package let height: Int
    /// `4·width·height` values, row by row.
    package let values: [Float]

    package init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == 4 * width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    /// From interleaved integer samples at `bitDepth` bits with `channels` 3 or 4.
    package init(width: Int, height: Int, channels: Int, bitDepth: Int, samples: [UInt16]) {
        let scale = 1 / Float((1 << bitDepth) - 1)
        var values = [Float](repeating: 1, count: 4 * width * height)
        for pixel in 0..<(width * height) {
            for lane in 0..<channels { values[4 * pixel + lane] = Float(samples[channels * pixel + lane]) * scale }
        }
        self.init(width: width, height: height, values: values)
    }

    /// A packed frame's samples, read straight from its bytes.
    package init(_ buffer: PixelBuffer) {
        precondition(buffer.format.bytesPerPixel != nil, "FrameSamples reads packed formats only")
        let channels = buffer.format.hasAlpha ? 4 : 3
        let count = buffer.width * buffer.height * channels
        let samples = buffer.withUnsafeBytes { bytes in
            [UInt16](unsafeUninitializedCapacity: count) { samples, initialized in
                if buffer.format.bitDepth == 16 {
                    for index in 0..<count {
                        samples[index] = UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8
                    }
                } else {
                    for index in 0..<count { samples[index] = UInt16(bytes[index]) }
                }
                initialized = count
            }
        }
        self.init(
            width: buffer.width, height: buffer.height, channels: channels, bitDepth: buffer.format.bitDepth,
            samples: samples)
    }

    /// Pixel `(x, y)` premultiplied: what the frame shows over black.
    @inline(__always)
    package func premultiplied(x: Int, y: Int) -> SIMD4<Float> {
        let offset = 4 * (y * width + x)
        let alpha = values[offset + 3]
        return SIMD4(values[offset] * alpha, values[offset + 1] * alpha, values[offset + 2] * alpha, alpha)
    }
}

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

    /// Compares two frames of the same size; `tolerance` is in 8-bit levels.
    package init(expected: FrameSamples, actual: FrameSamples, tolerance: Double) {
        precondition(expected.width == actual.width && expected.height == actual.height, "frames differ in size")
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
                    let delta = OKLab(red: Double(a.x), green: Double(a.y), blue: Double(a.z))
                        .distance(to: OKLab(red: Double(b.x), green: Double(b.y), blue: Double(b.z)))
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

/// The "expected | actual | difference" picture of two frames: three panels side by
/// side, the difference as a heat map of each pixel's largest channel difference.
/// Within the tolerance it is black; above it, from dark red at the tolerance to
/// yellow and white at the frame's largest difference, so even one level shows.
package enum DiffStrip {
    package static func render(expected: FrameSamples, actual: FrameSamples, tolerance: Double) -> PixelBuffer {
        let width = expected.width, height = expected.height
        let map = heatMap(expected: expected, actual: actual, tolerance: tolerance)
        var strip = PixelBuffer(width: 3 * width, height: height, format: .rgb24)
        strip.withUnsafeMutableBytes { bytes in
            map.withUnsafeBytes { heat in
                for y in 0..<height {
                    for x in 0..<width {
                        let row = y * 3 * width
                        let a = expected.premultiplied(x: x, y: y), b = actual.premultiplied(x: x, y: y)
                        for lane in 0..<3 {
                            bytes[(row + x) * 3 + lane] = level(a[lane])
                            bytes[(row + width + x) * 3 + lane] = level(b[lane])
                            bytes[(row + 2 * width + x) * 3 + lane] = heat[(y * width + x) * 4 + lane]
                        }
                    }
                }
            }
        }
        return strip
    }

    /// The strip's third panel alone, opaque RGBA.
    ///
    /// - Parameters:
    ///   - expected: one frame.
    ///   - actual: the other, of the same size.
    ///   - tolerance: the largest difference, in 8-bit levels, left black.
    /// - Returns: the heat map, 8-bit RGBA with every alpha 255.
    package static func heatMap(expected: FrameSamples, actual: FrameSamples, tolerance: Double) -> PixelBuffer {
        let width = expected.width, height = expected.height
        var map = PixelBuffer(width: width, height: height, format: .rgba)
        var largest: Float = 0
        for y in 0..<height {
            for x in 0..<width {
                largest = max(
                    largest, absolute(expected.premultiplied(x: x, y: y) - actual.premultiplied(x: x, y: y)).max())
            }
        }
        let floor = Float(tolerance / 255)
        map.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let d = absolute(expected.premultiplied(x: x, y: y) - actual.premultiplied(x: x, y: y)).max()
                    let color =
                        d > floor && largest > floor
                        ? heat(0.25 + 0.75 * (d - floor) / max(largest - floor, 1e-9)) : SIMD4<Float>(0, 0, 0, 1)
                    for lane in 0..<4 { bytes[(y * width + x) * 4 + lane] = level(color[lane]) }
                }
            }
        }
        return map
    }

    /// A value in 0...1 (clamped) as an 8-bit level, rounded.
    private static func level(_ value: Float) -> UInt8 { UInt8(min(max(value, 0), 1) * 255 + 0.5) }

    /// Black → red → yellow → white along `t` in 0...1.
    static func heat(_ t: Float) -> SIMD4<Float> {
        let t = min(max(t, 0), 1)
        return SIMD4(min(t * 3, 1), min(max(t * 3 - 1, 0), 1), min(max(t * 3 - 2, 0), 1), 1)
    }
}

/// Lane-wise |v|.
@inline(__always)
func absolute(_ v: SIMD4<Float>) -> SIMD4<Float> { v.replacing(with: -v, where: v .< 0) }
