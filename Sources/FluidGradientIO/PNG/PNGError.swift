import FluidGradient
import SystemPackage

/// A PNG that could not be encoded, written or read through libpng.
///
/// ``description`` is the one-line message the command line prints.
public enum PNGError: FluidGradientError, Equatable {
    /// The pixels are in a layout PNG does not hold (it holds RGB or RGBA, 8 or 16 bits).
    case unsupportedFormat(format: String)
    /// libpng could not write `path`: its `message`, and the system's `errno` when a write
    /// call failed.
    case cannotWrite(path: String, message: String, errno: Errno?)
    /// libpng could not encode a PNG in memory: its `message` (it ran out of memory).
    case cannotEncode(message: String)
    /// There is no file at `path`.
    case missing(path: String)
    /// `path` is longer than the system looks up.
    case pathTooLong(path: String)
    /// `path` is a directory.
    case isDirectory(path: String)
    /// The system refused to open or read `path`.
    case cannotOpen(path: String, errno: Errno)
    /// What a pipe at `path` gave is larger than `limit` bytes.
    case tooLarge(path: String, limit: Int)
    /// libpng could not decode `path`: its `message`.
    case cannotDecode(path: String, message: String)
    /// No frame was rendered into the single PNG `path`, so it was not written.
    case nothingRendered(path: String)

    /// One line that says what failed.
    public var description: String {
        switch self {
        case .unsupportedFormat(let format):
            "PNG needs an RGB or RGBA pixel format, not \(format)"
        case .cannotWrite(let path, let message, let errno):
            "could not write \(path): \(message)" + (errno.map(FileError.advice(forWriteError:)) ?? "")
        case .cannotEncode(let message):
            "could not encode a PNG: \(message)"
        case .missing(let path):
            "cannot read \(path): no such file"
        case .pathTooLong(let path):
            "cannot read \(path): \(pathTooLongReason)"
        case .isDirectory(let path):
            "cannot read \(path): it is a directory, not a PNG image"
        case .cannotOpen(let path, let errno):
            "cannot read \(path): \(reason(errno))"
        case .tooLarge(let path, let limit):
            "cannot read \(path): it is larger than \(limit >> 20) MiB, more than the largest image this reads"
        case .cannotDecode(let path, let message):
            "cannot read \(path): \(message)"
        case .nothingRendered(let path):
            "no frame was rendered into \(path)"
        }
    }

    /// False when libpng failed to encode or write (the command's status 3); true when an
    /// image the caller gave cannot be read.
    public var isInputError: Bool {
        switch self {
        case .cannotWrite, .cannotEncode, .nothingRendered: false
        default: true
        }
    }
}
