import FluidGradient

/// Why rendering a preset into a file, a bundle or bytes did not complete, or why a
/// preset file could not be read: each case holds the error of its domain, with its own
/// cases, and words it as that error does.
///
/// ```swift
/// do {
///     try await preset.write(to: .video(path: "loop.mp4", container: .mp4))
/// } catch .interrupted {
///     // The task was cancelled; nothing was left at loop.mp4.
/// } catch {
///     print(error.isInputError ? "bad request: \(error)" : "failed: \(error)")
/// }
/// ```
public enum RenderError: FluidGradientError, Equatable {
    /// The preset, the size or an instant is out of bounds.
    case preset(PresetError)
    /// The output and the options asked for do not fit together, such as `--alpha keep`
    /// for an `.mp4`, or a size the codec cannot take.
    case output(OutputError)
    /// A path that cannot be written or read, or a write that failed.
    case file(FileError)
    /// libpng could not encode or write a PNG.
    case png(PNGError)
    /// ffmpeg is missing, or failed to encode, finish or read back a file.
    case video(VideoError)
    /// The task was cancelled, or the command interrupted, before the work was complete;
    /// the error says what was left behind.
    case interrupted(InterruptionError)

    /// The wrapped error's one line.
    public var description: String {
        switch self {
        case .preset(let error): error.description
        case .output(let error): error.description
        case .file(let error): error.description
        case .png(let error): error.description
        case .video(let error): error.description
        case .interrupted(let error): error.description
        }
    }

    /// The wrapped error's `isInputError`.
    public var isInputError: Bool { wrapped.isInputError }

    /// The error this case holds.
    private var wrapped: any FluidGradientError {
        switch self {
        case .preset(let error): error
        case .output(let error): error
        case .file(let error): error
        case .png(let error): error
        case .video(let error): error
        case .interrupted(let error): error
        }
    }

    /// `error`, thrown while writing `path`, as a case of this type.
    ///
    /// A ``DecodeError`` here comes from reading back a file the library wrote itself (a
    /// bundle's measurement), so it is a failure to finish that file, not the caller's
    /// input; a `CancellationError` is an interruption that removed what was written.
    ///
    /// - Parameters:
    ///   - error: what the work threw.
    ///   - path: the output, for an error that does not name one.
    package init(_ error: any Error, path: String) {
        switch error {
        case let error as RenderError: self = error
        case let error as PresetError: self = .preset(error)
        case let error as OutputError: self = .output(error)
        case let error as FileError: self = .file(error)
        case let error as PNGError: self = .png(error)
        case let error as VideoError: self = .video(error)
        case let error as InterruptionError: self = .interrupted(error)
        case is CancellationError: self = .interrupted(InterruptionError(leftBehind: .partialOutputRemoved))
        case let error as DecodeError: self = .video(.cannotReadBack(path: path, detail: error.description))
        default:
            assertionFailure("an error the library does not wrap: \(type(of: error)): \(error)")
            self = .video(.cannotReadBack(path: path, detail: "\(error)"))
        }
    }
}
