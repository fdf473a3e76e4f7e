import FluidGradient

/// A decoded image: interleaved RGB or RGBA samples at their stored depth.
package struct DecodedImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// 3 or 4.
    package let channels: Int
    /// 8 or 16.
    package let bitDepth: Int
    package let samples: [UInt16]
    /// The space the file says its samples are in; nil for one the engine does not write
    /// (a profile or cICP of other primaries).
    package let colorSpace: ColorSpace?

    package init(
        width: Int, height: Int, channels: Int, bitDepth: Int, samples: [UInt16], colorSpace: ColorSpace? = .srgb
    ) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.samples = samples
        self.colorSpace = colorSpace
    }

    package var hasAlpha: Bool { channels == 4 }

    /// Pixel `(x, y)` as RGBA in 0...1 (opaque when there is no alpha channel).
    package func rgba(x: Int, y: Int) -> SIMD4<Double> {
        let scale = bitDepth == 16 ? 65535.0 : 255.0
        let offset = (y * width + x) * channels
        return SIMD4(
            Double(samples[offset]) / scale, Double(samples[offset + 1]) / scale, Double(samples[offset + 2]) / scale,
            channels == 4 ? Double(samples[offset + 3]) / scale : 1)
    }
}

extension FrameSamples {
    /// A decoded PNG's samples, for comparison.
    package init(_ image: DecodedImage) {
        self.init(
            width: image.width, height: image.height, channels: image.channels, bitDepth: image.bitDepth,
            samples: image.samples, colorSpace: image.colorSpace ?? .srgb)
    }
}
