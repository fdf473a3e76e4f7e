import Foundation

/// A decoded frame on a common scale: RGBA in 0...1 per pixel, straight alpha
/// (1 where the source had no alpha channel), whatever its bit depth, in the colour
/// space its file says.
package struct FrameSamples: Sendable {
    package let width: Int
    package let height: Int
    /// `4·width·height` values, row by row.
    package let values: [Float]
    /// The space of the values: gamma-encoded sRGB or Display P3.
    package var colorSpace: ColorSpace

    package init(width: Int, height: Int, values: [Float], colorSpace: ColorSpace = .srgb) {
        precondition(values.count == 4 * width * height)
        self.width = width
        self.height = height
        self.values = values
        self.colorSpace = colorSpace
    }

    /// From interleaved integer samples at `bitDepth` bits with `channels` 3 or 4.
    package init(
        width: Int, height: Int, channels: Int, bitDepth: Int, samples: [UInt16], colorSpace: ColorSpace = .srgb
    ) {
        let scale = 1 / Float((1 << bitDepth) - 1)
        var values = [Float](repeating: 1, count: 4 * width * height)
        for pixel in 0..<(width * height) {
            for lane in 0..<channels { values[4 * pixel + lane] = Float(samples[channels * pixel + lane]) * scale }
        }
        self.init(width: width, height: height, values: values, colorSpace: colorSpace)
    }

    /// The frame in `space`: the same values when it is already there, else each colour
    /// converted (sRGB into Display P3 stays inside it; Display P3 into sRGB is clipped).
    package func converted(to space: ColorSpace) -> FrameSamples {
        guard space != colorSpace else { return self }
        let matrix = space == .displayP3 ? ColorMath.linearSRGBToLinearP3 : ColorMath.linearP3ToLinearSRGB
        var converted = values
        for pixel in 0..<(width * height) {
            let rgb = SIMD3(Double(values[4 * pixel]), Double(values[4 * pixel + 1]), Double(values[4 * pixel + 2]))
            let out = ColorMath.encoded(matrix(ColorMath.linear(rgb))).clamped(lowerBound: .zero, upperBound: .one)
            for lane in 0..<3 { converted[4 * pixel + lane] = Float(out[lane]) }
        }
        return FrameSamples(width: width, height: height, values: converted, colorSpace: space)
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
