import Foundation
import SystemPackage

/// A file written under a temporary name beside its destination and renamed into
/// place only when complete, so a crash or an interrupt never leaves a partial file
/// under the final name. An uncommitted file is removed on ``discard()`` (and when it
/// is freed), and by ``Interruption`` if a second interrupt stops the process at once.
package final class AtomicFile: @unchecked Sendable {
    /// Where the finished file goes.
    package let destination: String
    /// What is renamed onto: `destination`, or the file a symbolic link there points to,
    /// so the link stays a link.
    private let finalPath: String
    /// Where it is written meanwhile: `.NAME.tmp-PID-N.EXT` in the same directory, so
    /// tools that pick a format from the extension (ffmpeg, libpng users) still can.
    package let temporaryPath: String
    private var isOpen = true
    /// Where ``Interruption`` keeps the temporary path for a second interrupt.
    private var cleanupSlot: Int32 = -1

    /// Prepares a temporary path and proves the directory is writable by creating it.
    /// Throws a ``FileError`` naming the directory when it is missing or not writable.
    /// `suggestedExtension` names the kind of file in the error when `destination` is a directory.
    package init(destination: String, suggestedExtension: String = "png") throws {
        guard !destination.isEmpty else { throw FileError.emptyPath(suggestedExtension: suggestedExtension) }
        self.destination = destination
        finalPath = try AtomicFile.fileToReplace(destination)
        let url = URL(fileURLWithPath: finalPath)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let ext = url.pathExtension
        guard name.utf8.count <= AtomicFile.longestName else {
            throw FileError.nameTooLong(
                path: destination, length: name.utf8.count, limit: AtomicFile.longestName)
        }
        var stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        let marker = ".tmp-\(getpid())-\(AtomicFile.nextSerial())" + (ext.isEmpty ? "" : "." + ext)
        guard 1 + marker.utf8.count <= AtomicFile.longestName else {
            throw FileError.extensionTooLong(path: destination)
        }
        // A name near the limit leaves no room for the marker: the temporary name takes less of it.
        while 1 + stem.utf8.count + marker.utf8.count > AtomicFile.longestName { stem.removeLast() }
        temporaryPath = directory + "/." + stem + marker
        try AtomicFile.checkDirectory(directory, for: destination)
        var isDirectory: ObjCBool = false
        let trimmed = destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        let example = trimmed + "/out." + (ext.isEmpty ? suggestedExtension : ext)
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            throw FileError.isDirectory(path: destination, example: example)
        }
        // Found now, not after the render: a file cannot be renamed onto a path that ends in "/".
        if destination.hasSuffix("/") {
            throw FileError.endsInSlash(path: destination, trimmed: trimmed, example: example)
        }
        // Registered first: a second interrupt between the two would leave the file.
        cleanupSlot = Interruption.register(temporaryPath: temporaryPath)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let failure = Errno.last
            Interruption.unregister(temporaryPathSlot: cleanupSlot)
            isOpen = false
            throw FileError.cannotCreate(
                path: destination, linkTarget: finalPath == destination ? nil : finalPath, errno: failure)
        }
        close(descriptor)
    }

    deinit { discard() }

    /// Writes `destination` through `body`, which fills the temporary path: commits when
    /// `body` returns and removes the temporary file when it throws.
    package static func write(
        to destination: String, suggestedExtension: String = "png", _ body: (_ temporaryPath: String) throws -> Void
    ) throws {
        let file = try AtomicFile(destination: destination, suggestedExtension: suggestedExtension)
        do {
            try body(file.temporaryPath)
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

    /// Writes `bytes` to `destination` atomically; a failure names the system's reason
    /// (such as "No space left on device").
    package static func write(_ bytes: [UInt8], to destination: String, suggestedExtension: String) throws {
        try write(to: destination, suggestedExtension: suggestedExtension) { path throws in
            try overwrite(path, with: bytes, destination: destination)
        }
    }

    /// Replaces the contents of the existing file at `path`, a temporary file of
    /// `destination`'s, with `bytes`.
    ///
    /// - Throws: ``FileError/cannotWrite(path:errno:)``.
    static func overwrite(_ path: String, with bytes: [UInt8], destination: String) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        var failure = descriptor < 0 ? errno : bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        if descriptor >= 0, close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else { throw FileError.cannotWrite(path: destination, errno: Errno(rawValue: failure)) }
    }

    /// Renames the finished temporary file onto the destination.
    package func commit() throws {
        guard isOpen else { return }
        guard rename(temporaryPath, finalPath) == 0 else {
            let reason = Errno.last
            discard()
            throw FileError.cannotMoveIntoPlace(path: destination, errno: reason)
        }
        isOpen = false
        Interruption.unregister(temporaryPathSlot: cleanupSlot)
    }

    /// Bytes in the temporary file so far (0 if it is gone).
    package var writtenSize: Int { AtomicFile.regularFileSize(temporaryPath) ?? 0 }

    /// The size of a regular file (through links), or nil for anything else or nothing.
    package static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Removes the temporary file, if it is still there.
    package func discard() {
        guard isOpen else { return }
        isOpen = false
        unlink(temporaryPath)
        Interruption.unregister(temporaryPathSlot: cleanupSlot)
    }

    /// Creates `directory` and its missing parents for `destination`, with the same
    /// one-line errors as ``checkDirectory(_:for:)`` when a file stands in the way.
    package static func createDirectory(_ directory: String, for destination: String) throws {
        try checkDirectory(nearestExisting(directory), for: destination)
        guard makeDirectories(directory) else {
            throw FileError.cannotCreateDirectory(directory: directory, path: destination, errno: .last)
        }
    }

    /// Creates `directory` and its missing parents; on failure returns false with `errno`
    /// set (ENOTDIR where a file stands in the way).
    static func makeDirectories(_ directory: String) -> Bool {
        guard !directory.isEmpty else { return true }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { errno = ENOTDIR }
            return isDirectory.boolValue
        }
        let parent = parentDirectory(of: directory)
        if parent != directory, !makeDirectories(parent) { return false }
        return mkdir(directory, 0o755) == 0 || errno == EEXIST
    }

    /// The directory part of `path`: "" for a bare name, "/" for a top-level entry.
    /// (Foundation's `deletingLastPathComponent` traps on a bare relative name on Linux.)
    package static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Whether `destination` could be written, judged without writing anything: the
    /// nearest directory on its path that exists is one this process may add entries to.
    /// (A file system can still refuse, as /proc does even root.)
    package static func checkWritable(_ destination: String) throws {
        // A link's target is written; the link's own directory holds what goes beside it.
        let target = try fileToReplace(destination)
        for path in Set([destination, target]) {
            if isTooLong(parentDirectory(of: path)) { throw FileError.pathTooLong(path: destination) }
            let existing = nearestExisting(parentDirectory(of: path))
            try checkDirectory(existing, for: destination)
            guard access(existing, W_OK | X_OK) == 0 else {
                throw FileError.directoryNotWritable(path: destination, directory: existing, errno: .last)
            }
        }
    }

    /// `directory`, or its nearest ancestor that exists.
    private static func nearestExisting(_ directory: String) -> String {
        var existing = directory.isEmpty ? "." : directory
        while !FileManager.default.fileExists(atPath: existing) {
            let parent = parentDirectory(of: existing)
            existing = parent.isEmpty ? "." : parent
        }
        return existing
    }

    static func checkDirectory(_ directory: String, for destination: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            if isTooLong(directory) { throw FileError.pathTooLong(path: destination) }
            throw FileError.missingDirectory(path: destination, directory: directory)
        }
        guard isDirectory.boolValue else {
            throw FileError.notADirectory(path: destination, directory: directory)
        }
    }

    /// The path a finished file is renamed onto for `destination`: itself, or the target
    /// of a symbolic link. A rename would replace a device, a FIFO or a socket with a
    /// plain file (as root, `/dev/full` itself), so those are refused, and so are links
    /// to open descriptors (`/dev/stdout`), which lead to whatever file the shell opened.
    static func fileToReplace(_ destination: String) throws -> String {
        var info = stat()
        guard lstat(destination, &info) == 0 else { return destination }
        guard info.st_mode & S_IFMT == S_IFLNK else {
            try refuseSpecialFile(info, destination)
            return destination
        }
        var hop = destination
        for _ in 0..<40 {
            let absolute = hop.hasPrefix("/") ? hop : FileManager.default.currentDirectoryPath + "/" + hop
            if absolute.hasPrefix("/proc/") || absolute.hasPrefix("/dev/fd/") || absolute.hasPrefix("/dev/std") {
                throw FileError.linkToDescriptor(path: destination)
            }
            guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: hop) else { break }
            hop = next.hasPrefix("/") ? next : AtomicFile.parentDirectory(of: absolute) + "/" + next
        }
        guard stat(destination, &info) == 0 else {
            throw FileError.brokenLink(path: destination, errno: .last)
        }
        try refuseSpecialFile(info, destination)
        guard let resolved = realpath(destination, nil) else {
            throw FileError.unresolvableLink(path: destination, errno: .last)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func refuseSpecialFile(_ info: stat, _ destination: String) throws {
        let kind: FileError.SpecialFile
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFIFO: kind = .namedPipe
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        throw FileError.specialFile(path: destination, kind: kind)
    }

    /// NAME_MAX of Linux file systems, in bytes.
    static let longestName = 255

    nonisolated(unsafe) private static var serial = 0
    private static let serialLock = NSLock()
    static func nextSerial() -> Int {
        serialLock.lock()
        defer { serialLock.unlock() }
        serial += 1
        return serial
    }
}
