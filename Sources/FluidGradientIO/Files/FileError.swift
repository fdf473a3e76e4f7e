import Foundation
import SystemPackage

/// A file or directory that could not be read or written, with the path it concerns and,
/// where the system refused, the system's `Errno`.
///
/// Nothing is left under a destination's name when one of these is thrown while writing
/// it. ``description`` is the one-line message the command line prints.
public enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination is a directory; `example` is a file path inside it to suggest.
    case isDirectory(path: String, example: String)
    /// The path, or a directory on it, is longer than the system looks up.
    case pathTooLong(path: String)
    /// A directory on the destination's path does not exist.
    case missingDirectory(path: String, directory: String)
    /// What stands where the destination's directory belongs is a file.
    case notADirectory(path: String, directory: String)
    /// The nearest existing directory of the destination cannot be written.
    case directoryNotWritable(path: String, directory: String, errno: Errno)
    /// The file could not be created; `linkTarget` is the file a link at `path` leads to.
    case cannotCreate(path: String, linkTarget: String?, errno: Errno)
    /// Writing the file's contents failed part way.
    case cannotWrite(path: String, errno: Errno)
    /// The finished file could not be renamed onto its destination.
    case cannotMoveIntoPlace(path: String, errno: Errno)
    /// A file the user named could not be opened or read; `what` names its role ("preset").
    case cannotRead(path: String, what: String, errno: Errno)
    /// A URL given for a file to read that is not a file URL; `what` names its role.
    case notAFileURL(url: String, what: String)
    /// A file the user named is a directory.
    case readDirectory(path: String, what: String)
    /// A file the user named is larger than `limit` bytes.
    case tooLarge(path: String, what: String, limit: Int)

    /// One line that says what failed and what to do.
    public var description: String {
        switch self {
        case .notAFileURL(let url, let what):
            "cannot read \(what) \(url): it is not a file URL"
        case .isDirectory(let path, let example):
            "cannot write \(path): it is a directory; name a file (such as \(example)) or remove the directory"
        case .pathTooLong(let path):
            "cannot write \(path): \(pathTooLongReason)"
        default:
            linkAndDirectoryDescription
        }
    }

    private var linkAndDirectoryDescription: String {
        switch self {
        case .missingDirectory(let path, let directory):
            "cannot write \(path): the directory \(directory) does not exist; create it first"
        case .notADirectory(let path, let directory):
            "cannot write \(path): \(directory) is a file, not a directory; choose an output path inside a directory"
        case .directoryNotWritable(let path, let directory, let errno):
            "cannot write \(path): \(directory == "." ? "the current directory" : directory) is not writable "
                + "(\(reason(errno))); choose a directory you can write to"
        default:
            writeDescription
        }
    }

    private var writeDescription: String {
        switch self {
        case .cannotCreate(let path, let linkTarget, let errno):
            "cannot write \(linkTarget.map { "\(path) (a link to \($0))" } ?? path): \(reason(errno))"
                + FileError.advice(forWriteError: errno)
        case .cannotWrite(let path, let errno):
            "could not write \(path): \(reason(errno))" + FileError.advice(forWriteError: errno)
        case .cannotMoveIntoPlace(let path, let errno):
            "could not move the finished file into place at \(path): \(reason(errno))"
        default:
            readDescription
        }
    }

    private var readDescription: String {
        switch self {
        case .cannotRead(let path, let what, let errno):
            "cannot read \(what) \(path): "
                + (errno == .noSuchFileOrDirectory
                    ? "no such file" : errno == .fileNameTooLong ? pathTooLongReason : reason(errno))
        case .readDirectory(let path, let what):
            "cannot read \(what) \(path): it is a directory"
        case .tooLarge(let path, let what, let limit):
            "cannot read \(what) \(path): it is larger than \(limit >> 20) MiB, far more than a \(what) holds"
        default:
            preconditionFailure("every case has its description")
        }
    }

    /// What to do about a failed write, after its reason: "" when there is nothing to add.
    static func advice(forWriteError error: Errno) -> String {
        switch error {
        case .noSpace, .diskQuotaExceeded: "; free some space, or write elsewhere"
        case .fileTooLarge: "; raise the file-size limit (ulimit -f) or write elsewhere"
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: "; choose a directory you can write to"
        case .fileNameTooLong: "; choose a shorter path"
        default: ""
        }
    }
}

/// The system's words for `errno`: "No space left on device".
func reason(_ errno: Errno) -> String { systemReason(errno.rawValue) }

extension Errno {
    /// The calling thread's `errno`, as swift-system has it.
    static var last: Errno { Errno(rawValue: Glibc.errno) }
}
