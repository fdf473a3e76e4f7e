/// The banding a frame adds to its reference: false contours in smooth regions that the
/// reference does not have, as CAMBI's full-reference mode measures them (the frame's
/// ``BandingIndex`` less the reference's, never below 0).
package struct BandingDifference: Sendable, Equatable {
    /// The reference's own index: the 10-bit rounding of a smooth dark gradient has steps too.
    package var expected: Double
    /// The compared frame's index.
    package var actual: Double

    /// The banding added, 0 or more.
    package var added: Double { max(0, actual - expected) }

    /// Above this much added banding a frame is flagged. Calibrated at 1080p on the dark
    /// presets: the engine's 8-bit frame without dither adds 2.90 (dusk) and 2.39 (graphite),
    /// the same frame dithered 0, and the bundle's 10-bit loops 0.02 to 0.46.
    package static let threshold = 1.0

    /// Whether the frame adds visible banding.
    package var isFlagged: Bool { added > BandingDifference.threshold }

    package init(expected: Double, actual: Double) {
        self.expected = expected
        self.actual = actual
    }

    /// Measures `actual` against `expected`, two frames of one size.
    package init(expected: FrameSamples, actual: FrameSamples) {
        self.init(expected: BandingIndex.of(expected), actual: BandingIndex.of(actual))
    }
}
