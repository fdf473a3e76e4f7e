import FluidGradientIO

/// The body of `POST /v1/jobs`: which design, which format, and optionally another duration
/// or frame rate than the design's.
package struct JobRequest: Codable, Sendable {
    /// A design's id from `POST /v1/designs` (or a preset list's `design`).
    package var design: String?
    /// A built-in preset's name, instead of `design`.
    package var preset: String?
    /// The format: `mp4`, `webm`, `mov`, `gif`, `webp`, `apng`, `avif` or `bundle`.
    package var format: String
    /// `auto` (the default: the smallest size the blur allows) or `full` (the design's size).
    package var encodeSize: String?
    /// The animation's length in seconds; the design's when left out.
    package var duration: Double?
    /// Frames per second; the design's when left out.
    package var fps: Double?
}
