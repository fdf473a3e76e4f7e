import FluidGradient
import FluidGradientIO

/// An error in what the user gave (a flag, an environment variable, a file's contents):
/// exit status 2. The command line's own error types conform to it.
protocol InputError: Error {}

extension BatchManifestError: InputError {}
extension ShardEnvironmentError: InputError {}

/// The exit status for `error` (DESIGN section 11), or nil for an error of the argument
/// parser's, which says how to use the command.
///
/// 2 is bad usage or input, 3 a failure to render or write, 130 an interrupt.
///
/// - Parameter error: an error thrown by a command.
/// - Returns: 2, 3 or 130, or nil.
func exitStatus(for error: any Error) -> Int32? {
    switch error {
    case is InterruptionError: 130
    case is InputError, is PresetError, is UnknownPresetError, is OutputError, is DecodeError: 2
    case is VideoError: 3
    case let error as FileError: error.isWriteFailure ? 3 : 2
    case let error as DestinationError: error.isWriteFailure ? 3 : 2
    case let error as PNGError: error.isWriteFailure ? 3 : 2
    default: nil
    }
}

extension FileError {
    /// Whether writing failed part way or at the end (3), rather than the path being
    /// refused before anything was written (2).
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotWrite, .cannotMoveIntoPlace: true
        default: false
        }
    }
}

extension DestinationError {
    /// Whether writing failed at the end or part way (3), rather than the destination
    /// being refused before anything was written (2).
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotReplace, .cannotMoveDirectoryIntoPlace, .standardOutput: true
        default: false
        }
    }
}

extension PNGError {
    /// Whether libpng failed to write (3), rather than an input being unreadable (2).
    fileprivate var isWriteFailure: Bool {
        switch self {
        case .cannotWrite, .cannotEncode, .nothingRendered: true
        default: false
        }
    }
}
