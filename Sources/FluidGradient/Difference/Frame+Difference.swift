extension Frame {
    /// How much two frames of one size differ: what `fluidgradient compare` reports for
    /// the pair, with the tolerance at 0, and the difference map its `--diff` strip shows.
    ///
    /// Values are compared premultiplied (colour × alpha, and alpha), so colours under a
    /// transparent pixel do not count. Differences are in 8-bit levels (1/255) whatever
    /// the frames' depths.
    public struct Difference: Sendable {
        /// `100·(1 − mean ΔE)`: 100 for the same colours everywhere, 0 for black against white.
        public let score: Double
        /// Peak signal-to-noise ratio over all channels, in dB; infinite for equal frames.
        public let psnr: Double
        /// The largest difference in any channel, in 8-bit levels, to 10⁻⁴.
        public let largestDifference: Double
        /// Where the largest difference is, from the top-left pixel, and in which channel:
        /// 0 red, 1 green, 2 blue, 3 alpha. The first such pixel in row order; (0, 0, 0)
        /// for equal frames.
        public let worst: (x: Int, y: Int, channel: Int)
        /// The mean colour difference over all pixels, as ΔE in OKLab between the colours
        /// shown over black (about 0.02 is just noticeable).
        public let meanDeltaE: Double
        /// The largest ΔE of any pixel.
        public let largestDeltaE: Double
        /// The difference as a heat map, the size of the frames, opaque and 8-bit: black
        /// where the pixels are equal, from dark red to yellow and white at the largest
        /// difference, so even one level shows.
        public let map: Frame
    }

    /// Compares this frame with `expected`, as `fluidgradient compare EXPECTED ACTUAL`
    /// does for two PNGs of theirs, with this frame as the actual one.
    ///
    /// - Parameter expected: The frame to compare with, such as a target image.
    /// - Returns: The difference, or nil when the frames differ in size (which `compare`
    ///   reports as a size mismatch, without measuring).
    public func difference(from expected: Frame) -> Difference? {
        guard expected.width == width, expected.height == height else { return nil }
        let a = expected.samples, b = samples
        let measured = FrameDifference(expected: a, actual: b, tolerance: 0)
        return Difference(
            score: measured.score, psnr: measured.psnr, largestDifference: measured.largest, worst: measured.worst,
            meanDeltaE: measured.meanDeltaE,
            largestDeltaE: measured.largestDeltaE,
            map: Frame(
                pixels: DiffStrip.heatMap(expected: a, actual: b, tolerance: 0), time: time, hasTransparency: false))
    }

    /// The samples on the comparison's scale, as `compare` reads the frame's PNG, read
    /// from the frame's own pixels: an opaque frame's alpha is exactly 1, as an RGB PNG's is.
    package var samples: FrameSamples {
        var read = FrameSamples(pixels, opaque: !hasTransparency)
        read.colorSpace = colorSpace
        return read
    }
}
