import FluidGradient

/// A decoded PNG as the file stores it, for the package's tests that check what was written.
extension Frame {
    /// The PNG's channels: 4 with alpha, 3 without.
    package var storedChannels: Int { hasTransparency ? 4 : 3 }

    /// The bits per sample: 8 or 16.
    package var bitDepth: Int { depth == .sixteen ? 16 : 8 }

    /// The samples as the PNG stores them, row after row: RGB, or RGBA with alpha.
    package var storedSamples: [UInt16] {
        let bytes = self.bytes, channels = storedChannels
        var samples: [UInt16] = []
        samples.reserveCapacity(width * height * channels)
        for pixel in 0..<(width * height) {
            for lane in 0..<channels { samples.append(sample(bytes, 4 * pixel + lane)) }
        }
        return samples
    }

    /// Pixel `(x, y)` as RGBA in 0...1, straight alpha.
    package func storedRGBA(x: Int, y: Int) -> SIMD4<Double> {
        let bytes = self.bytes, scale = depth == .sixteen ? 65535.0 : 255.0, index = 4 * (y * width + x)
        return SIMD4((0..<4).map { Double(sample(bytes, index + $0)) / scale })
    }

    /// Sample `index` of `bytes`, at the frame's depth.
    private func sample(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        depth == .sixteen ? UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8 : UInt16(bytes[index])
    }
}
