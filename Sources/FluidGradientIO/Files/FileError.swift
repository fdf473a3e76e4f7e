import FluidGradient
import Foundation
import SystemPackage

/// A file or directory that could not be read or written, with the path it concerns and,
/// where the system refused, the system's `Errno`: a destination refused before anything
/// is written (a name too long, a link to a descriptor, a device), a bundle's directory,
/// standard output, or a write or read that failed.
///
/// Nothing is left under a destination's name when one of these is thrown while writing
/// it. ``description`` is the one-line message the command line prints.
public enum FileError: FluidGradientError, Equatable {
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
    /// The output path is empty; `suggestedExtension` names the kind of file expected.
    case emptyPath(suggestedExtension: String)
    /// The bundle directory's path is empty.
    case emptyDirectoryPath
    /// The destination's file name is `length` bytes, more than a name can hold (`limit`).
    case nameTooLong(path: String, length: Int, limit: Int)
    /// The destination's extension leaves no room for the temporary name it is written under.
    case extensionTooLong(path: String)
    /// The destination ends in `/`, so it names a directory; `trimmed` is it without the slash.
    case endsInSlash(path: String, trimmed: String, example: String)
    /// A directory for the destination could not be created.
    case cannotCreateDirectory(directory: String, path: String, errno: Errno)
    /// The destination is a symbolic link to an open file descriptor (`/dev/stdout`).
    case linkToDescriptor(path: String)
    /// The destination is a symbolic link to a file that is missing or out of reach.
    case brokenLink(path: String, errno: Errno)
    /// The destination's symbolic link cannot be resolved.
    case unresolvableLink(path: String, errno: Errno)
    /// The destination is a device, a pipe or a socket, which a finished file would replace.
    case specialFile(path: String, kind: SpecialFile)
    /// The hidden directory a bundle is built in could not be created.
    case cannotCreateStaging(path: String, errno: Errno)
    /// The earlier result at a directory's destination could not be moved aside.
    case cannotReplace(path: String, errno: Errno)
    /// The finished directory could not be renamed onto its destination.
    case cannotMoveDirectoryIntoPlace(path: String, errno: Errno)
    /// A file has the name of the bundle directory to write.
    case bundleIsFile(path: String)
    /// The bundle's destination holds files this tool did not write (no `marker` file).
    case foreignDirectory(path: String, marker: String)
    /// Writing to standard output failed after `frames` whole frames.
    case standardOutput(frames: Int, errno: Errno)

    /// What a special file is, to say why it is not replaced.
    public enum SpecialFile: Sendable, Equatable {
        /// A character or block device.
        case device
        /// A named pipe (FIFO).
        case namedPipe
        /// A socket.
        case socket
        /// Any other kind of file that is not a regular one.
        case other
    }

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
            destinationDescription
        }
    }

    private var destinationDescription: String {
        switch self {
        case .emptyPath(let suggestedExtension):
            "the output path is empty; name a file such as out.\(suggestedExtension)"
        case .emptyDirectoryPath:
            "the bundle directory is empty; name one such as web/hero"
        case .nameTooLong(let path, let length, let limit):
            "cannot write \(path): its file name is \(length) bytes, and a name can have at most \(limit); "
                + "choose a shorter name"
        case .extensionTooLong(let path):
            "cannot write \(path): its extension is too long to write it safely; choose a shorter name"
        case .endsInSlash(let path, let trimmed, let example):
            "cannot write \(path): a path that ends in / names a directory; write \(trimmed) or name a file such as "
                + example
        case .linkToDescriptor(let path):
            "cannot write \(path): it is a link to an open file descriptor; redirect the output in the shell, "
                + "or name a regular file"
        case .brokenLink(let path, let errno):
            "cannot write \(path): it is a symbolic link to "
                + (errno == .noSuchFileOrDirectory ? "a missing file" : "a file it cannot reach (\(reason(errno)))")
                + "; remove the link or write elsewhere"
        case .unresolvableLink(let path, let errno):
            "cannot write \(path): its link cannot be followed (\(reason(errno)))"
        case .specialFile(let path, let kind):
            "cannot write \(path): it is \(kind.noun), which writing a finished file into place would replace; "
                + "name a regular file"
        case .cannotCreateDirectory(let directory, let path, let errno):
            "cannot create the directory \(directory) for \(path): \(reason(errno)); "
                + "choose a directory you can write to"
        case .cannotReplace(let path, let errno):
            "cannot replace \(path): \(reason(errno))"
        case .bundleIsFile(let path):
            "cannot write the bundle \(path): a file has that name; remove it or name a new directory"
        case .foreignDirectory(let path, let marker):
            "cannot write the bundle \(path): the directory holds other files (it has no \(marker)); "
                + "name a new directory, or empty this one"
        case .standardOutput(let frames, let errno):
            "could not write raw frames to standard output after \(counted(frames, "frame")): \(reason(errno))"
        case .cannotCreateStaging(let path, let errno), .cannotMoveDirectoryIntoPlace(let path, let errno):
            "cannot write \(path): \(reason(errno))"
        default:
            preconditionFailure("every case has its description")
        }
    }

    /// False for a write that failed part way or at the end (the command's status 3);
    /// true for a path refused before anything was written, and for a file the caller
    /// named that cannot be read.
    public var isInputError: Bool {
        switch self {
        case .cannotWrite, .cannotMoveIntoPlace, .cannotReplace, .cannotMoveDirectoryIntoPlace, .standardOutput: false
        default: true
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

extension FileError.SpecialFile {
    fileprivate var noun: String {
        switch self {
        case .device: "a device"
        case .namedPipe: "a named pipe"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }
}

/// The system's words for `errno`: "No space left on device".
func reason(_ errno: Errno) -> String { systemReason(errno.rawValue) }

extension Errno {
    /// The calling thread's `errno`, as swift-system has it.
    static var last: Errno { Errno(rawValue: Glibc.errno) }
}
