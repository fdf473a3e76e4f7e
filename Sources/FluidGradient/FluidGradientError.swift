/// An error the libraries throw, which says whose it is: what the caller gave, or a failure
/// to render or write.
///
/// Every public error type of FluidGradient and FluidGradientIO conforms, so one question
/// tells a bad request from a failure of the library's own, whatever threw it:
///
/// ```swift
/// do {
///     try await preset.write(to: .video(path: "loop.mp4", container: .mp4))
/// } catch {
///     let status = error.isInputError ? 422 : 500
/// }
/// ```
///
/// The `fluidgradient` command exits with status 2 for an input error and 3 for a failure,
/// from this same property.
public protocol FluidGradientError: Error, CustomStringConvertible, Sendable {
    /// Whether what the caller gave cannot be used (a preset or value out of bounds, a size
    /// or option the output cannot take, a path that cannot be written, an image that
    /// cannot be read), rather than rendering or writing having failed (ffmpeg missing or
    /// failing, a disk that filled up) or the work having been stopped.
    var isInputError: Bool { get }
}

extension PresetError: FluidGradientError {
    /// True: a preset that cannot be used is the caller's.
    public var isInputError: Bool { true }
}

extension GradientError: FluidGradientError {
    /// True: a refused gradient edit is the caller's.
    public var isInputError: Bool { true }
}
