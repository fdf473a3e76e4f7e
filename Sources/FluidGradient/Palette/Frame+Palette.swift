extension Frame {
    /// The frame's prominent colours: what `fluidgradient palette` prints for the same
    /// image, in the same order.
    ///
    /// The colours are found by k-means in OKLab with a fixed seed, so a frame always
    /// gives the same palette. Pixels under 50% opacity are ignored; a frame over 65,536
    /// pixels is sampled on a regular grid of about that many.
    ///
    /// - Parameter count: The most colours to find, 1...16; a frame with fewer distinct
    ///   colours gives fewer.
    /// - Returns: The colours, opaque, the one covering most of the frame first; empty
    ///   when no pixel is at least half opaque.
    /// - Throws: ``PaletteError/countOutOfRange(count:allowed:)`` when `count` is outside 1...16.
    public func palette(count: Int) throws(PaletteError) -> [RGBA] {
        guard PresetLimits.paletteCount.contains(count) else {
            throw PaletteError.countOutOfRange(count: count, allowed: PresetLimits.paletteCount)
        }
        return swatches(count: count).map(\.color)
    }

    /// The frame's prominent colours with their shares, largest first.
    ///
    /// - Parameter count: the most colours to find, inside ``PresetLimits/paletteCount``.
    /// - Returns: the swatches; empty when no pixel is at least half opaque.
    package func swatches(count: Int) -> [PaletteExtractor.Swatch] {
        let scale = depth == .sixteen ? 65535.0 : 255.0
        return PaletteExtractor(count: count).extract(width: width, height: height) { x, y in
            let samples = pixels.channels(x: x, y: y)
            return SIMD4(
                Double(samples[0]) / scale, Double(samples[1]) / scale, Double(samples[2]) / scale,
                Double(samples[3]) / scale)
        }
    }
}
