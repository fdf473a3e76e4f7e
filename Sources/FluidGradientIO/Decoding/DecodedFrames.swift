import FluidGradient

/// Frames read one after another, as a video or an animation is decoded.
protocol DecodedFrames: AnyObject {
    /// The next frame, or nil after the last one.
    func next() throws -> FrameSamples?
    /// Passes over the next frame without making its samples; false after the last one.
    func skip() throws -> Bool
    /// Whether this is one image that shows at every instant, with no time of its own.
    var isStill: Bool { get }
}

extension DecodedFrames {
    var isStill: Bool { false }

    func skip() throws -> Bool { try next() != nil }
}

/// An animation whose frames each show for a time of their own, as WebP, AVIF and APNG
/// files store them.
protocol TimedFrames: DecodedFrames {
    /// The file, for messages.
    var path: String { get }
    /// How long each frame shows, in seconds, in display order: one entry per frame. A
    /// still image is one frame of no duration.
    var durations: [Double] { get }
}
