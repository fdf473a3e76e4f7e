import FluidGradient

/// Whether `error`, as this library throws it, is about what the caller gave (a preset or
/// value out of bounds, a size or encode size the encoder cannot take, a path that cannot
/// be used, an image that cannot be read) rather than a failure to render or write
/// (ffmpeg missing or failing, a disk that filled up). The command line exits with status
/// 2 for the first and 3 for the second; a service answers the first as the request's fault.
///
/// - Parameter error: An error thrown by this library.
/// - Returns: True for the caller's input; false for a failure to render or write, for
///   ``VideoError/stopped(path:)``, and for an error this library does not throw.
public func isInputError(_ error: any Error) -> Bool { ErrorBlame(error) == .input }

/// Whose an error of the library's is: the caller's input, or a failure to render or write.
package enum ErrorBlame: Equatable {
    /// What the caller gave cannot be used (the command's exit status 2).
    case input
    /// Rendering or writing failed (the command's exit status 3).
    case failure

    /// The blame for `error`; nil for a stop or interruption and for an error the library
    /// does not throw.
    ///
    /// - Parameter error: an error thrown by the library.
    package init?(_ error: any Error) {
        switch error {
        case is PresetError, is UnknownPresetError, is OutputError, is DecodeError: self = .input
        case let error as VideoError:
            if case .stopped = error { return nil }
            self = .failure
        case let error as FileError: self = error.isWriteFailure ? .failure : .input
        case let error as DestinationError: self = error.isWriteFailure ? .failure : .input
        case let error as PNGError: self = error.isWriteFailure ? .failure : .input
        default: return nil
        }
    }
}

extension FileError {
    /// Whether writing failed part way or at the end, rather than the path being refused
    /// before anything was written.
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotWrite, .cannotMoveIntoPlace: true
        default: false
        }
    }
}

extension DestinationError {
    /// Whether writing failed at the end or part way, rather than the destination being
    /// refused before anything was written.
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotReplace, .cannotMoveDirectoryIntoPlace, .standardOutput: true
        default: false
        }
    }
}

extension PNGError {
    /// Whether libpng failed to write, rather than an input being unreadable.
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotWrite, .cannotEncode, .nothingRendered: true
        default: false
        }
    }
}
