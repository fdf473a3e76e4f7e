import Foundation
import SystemPackage

/// A destination the command line writes that cannot be used: an output path refused
/// before anything is written, a bundle's directory, or standard output. The library's
/// own outputs meet ``FileError`` instead; these cases concern what the command line
/// names and replaces.
///
/// ``description`` is the one-line message the command line prints.
package enum DestinationError: Error, Sendable, Equatable, CustomStringConvertible {
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
    package enum SpecialFile: Sendable, Equatable {
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
    package var description: String {
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
        }
    }
}

extension DestinationError.SpecialFile {
    fileprivate var noun: String {
        switch self {
        case .device: "a device"
        case .namedPipe: "a named pipe"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }
}
