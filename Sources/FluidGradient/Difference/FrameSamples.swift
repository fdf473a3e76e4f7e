import Foundation

/// A decoded frame on a common scale: RGBA in 0...1 per pixel, straight alpha
/// (1 where the source had no alpha channel), whatever its bit depth, in the colour
/// space its file says.
///
/// Samples are held as the frame came: either as floats, for frames computed or
/// converted on the way in (video, upscales), or as the packed 8- or 16-bit buffer a
/// PNG decoded into or a renderer wrote, read and scaled pixel by pixel without a copy.
/// Both give the same values: a sample `v` of `b` bits reads as `Float(v)·(1/(2ᵇ − 1))`.
package struct FrameSamples: Sendable {
    package let width: Int
    package let height: Int
    /// The space of the values: gamma-encoded sRGB or Display P3.
    package var colorSpace: ColorSpace
    /// `4·width·height` values, row by row; empty when the samples are ``packed``.
    private let floats: [Float]
    /// A packed RGB(A) buffer's bytes, `channels` samples a pixel, 8 or 16 bits
    /// (little-endian), read at `scale` per step; alpha reads as 1 when `opaque`.
    private let packed: [UInt8]
    private let channels: Int
    private let sixteen: Bool
    private let scale: Float
    private let opaque: Bool

    package init(width: Int, height: Int, values: [Float], colorSpace: ColorSpace = .srgb) {
        precondition(values.count == 4 * width * height)
        self.width = width
        self.height = height
        floats = values
        self.colorSpace = colorSpace
        (packed, channels, sixteen, scale, opaque) = ([], 4, false, 1, false)
    }

    /// From interleaved integer samples at `bitDepth` bits with `channels` 3 or 4.
    package init(
        width: Int, height: Int, channels: Int, bitDepth: Int, samples: [UInt16], colorSpace: ColorSpace = .srgb
    ) {
        let scale = FrameSamples.scale(bitDepth: bitDepth)
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
        let values = self.values
        var converted = values
        for pixel in 0..<(width * height) {
            let rgb = SIMD3(Double(values[4 * pixel]), Double(values[4 * pixel + 1]), Double(values[4 * pixel + 2]))
            let out = ColorMath.encoded(matrix(ColorMath.linear(rgb))).clamped(lowerBound: .zero, upperBound: .one)
            for lane in 0..<3 { converted[4 * pixel + lane] = Float(out[lane]) }
        }
        return FrameSamples(width: width, height: height, values: converted, colorSpace: space)
    }

    /// A packed frame's samples, read from its bytes when asked: no copy is made.
    ///
    /// - Parameters:
    ///   - buffer: RGB or RGBA, 8 or 16 bits.
    ///   - opaque: Reads every alpha as exactly 1, as an RGB file's is, whatever the
    ///     buffer's alpha samples hold.
    package init(_ buffer: PixelBuffer, opaque: Bool = false) {
        precondition(buffer.format.bytesPerPixel != nil, "FrameSamples reads packed formats only")
        width = buffer.width
        height = buffer.height
        colorSpace = .srgb
        floats = []
        packed = buffer.bytes
        channels = buffer.format.hasAlpha ? 4 : 3
        sixteen = buffer.format.bitDepth == 16
        scale = FrameSamples.scale(bitDepth: buffer.format.bitDepth)
        self.opaque = opaque || !buffer.format.hasAlpha
    }

    /// The scale from `bitDepth`-bit steps to 0...1.
    private static func scale(bitDepth: Int) -> Float { 1 / Float((1 << bitDepth) - 1) }

    /// Pixel `(x, y)`, straight alpha.
    @inline(__always)
    package func rgba(x: Int, y: Int) -> SIMD4<Float> {
        let pixel = y * width + x
        guard floats.isEmpty else {
            return SIMD4(floats[4 * pixel], floats[4 * pixel + 1], floats[4 * pixel + 2], floats[4 * pixel + 3])
        }
        let offset = channels * pixel
        return SIMD4(sample(offset), sample(offset + 1), sample(offset + 2), opaque ? 1 : sample(offset + 3))
    }

    /// Packed sample `index`, scaled to 0...1.
    @inline(__always)
    private func sample(_ index: Int) -> Float {
        if sixteen { return Float(UInt16(packed[2 * index]) | UInt16(packed[2 * index + 1]) << 8) * scale }
        return Float(packed[index]) * scale
    }

    /// Pixel `(x, y)` premultiplied: what the frame shows over black.
    @inline(__always)
    package func premultiplied(x: Int, y: Int) -> SIMD4<Float> {
        let value = rgba(x: x, y: y), alpha = value.w
        return SIMD4(value.x * alpha, value.y * alpha, value.z * alpha, alpha)
    }

    /// Every pixel's `rgba(x:y:)`, row by row: `4·width·height` values.
    package var values: [Float] {
        guard floats.isEmpty else { return floats }
        var values = [Float](repeating: 0, count: 4 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = rgba(x: x, y: y), offset = 4 * (y * width + x)
                for lane in 0..<4 { values[offset + lane] = pixel[lane] }
            }
        }
        return values
    }

    /// Whether some pixel's alpha is less than 1.
    package var hasTransparency: Bool {
        guard floats.isEmpty else { return stride(from: 3, to: floats.count, by: 4).contains { floats[$0] < 1 } }
        guard !opaque else { return false }
        return (0..<(width * height)).contains { sample(4 * $0 + 3) < 1 }
    }
}
