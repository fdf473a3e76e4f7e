import Foundation
import SystemPackage

/// A directory of files built under a hidden name beside its destination and renamed
/// into place when every file is in it, as ``AtomicFile`` does for one file: a failure
/// or an interrupt leaves the destination as it was.
///
/// A destination that already holds an earlier result (it has `marker`, and no
/// subdirectory) is replaced whole at ``commit()``; anything else there is refused
/// before any work starts, since replacing it would lose files this tool did not write.
package final class AtomicDirectory: @unchecked Sendable {
    /// Where the finished directory goes.
    package let destination: String
    /// Where its files are written meanwhile.
    package let temporaryPath: String
    private let marker: String
    private var isOpen = true

    /// Creates the hidden directory.
    ///
    /// - Parameters:
    ///   - destination: the directory to create or replace.
    ///   - marker: the file name that shows an existing `destination` is an earlier
    ///     result, such as `manifest.json`.
    /// - Throws: a ``FileError`` when `destination` is a file, a directory of other
    ///   things, or in a place this process cannot write.
    package init(destination: String, marker: String) throws {
        let trimmed = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
        guard !trimmed.isEmpty else { throw FileError.emptyDirectoryPath }
        self.destination = trimmed
        self.marker = marker
        try AtomicDirectory.checkReplaceable(trimmed, marker: marker)
        let parent = AtomicFile.parentDirectory(of: trimmed)
        try AtomicFile.createDirectory(parent.isEmpty ? "." : parent, for: trimmed)
        try AtomicFile.checkWritable(trimmed)
        let name = URL(fileURLWithPath: trimmed).lastPathComponent
        temporaryPath =
            (parent.isEmpty ? "" : parent + "/") + "." + name.prefix(200)
            + ".tmp-\(getpid())-\(AtomicFile.nextSerial())"
        guard mkdir(temporaryPath, 0o755) == 0 else {
            throw FileError.cannotCreateStaging(path: trimmed, errno: .last)
        }
    }

    deinit { discard() }

    /// The path of `file` inside the directory being built.
    package func path(of file: String) -> String { temporaryPath + "/" + file }

    /// Puts the directory in place, replacing an earlier result.
    ///
    /// - Throws: a failure naming the system's reason when a rename fails; the earlier
    ///   result is then back under its name.
    package func commit() throws {
        precondition(isOpen, "a directory is committed once")
        let old = temporaryPath + ".old"
        let replacing = FileManager.default.fileExists(atPath: destination)
        if replacing, rename(destination, old) != 0 {
            throw FileError.cannotReplace(path: destination, errno: .last)
        }
        guard rename(temporaryPath, destination) == 0 else {
            let reason = Errno.last
            if replacing { _ = rename(old, destination) }
            throw FileError.cannotMoveDirectoryIntoPlace(path: destination, errno: reason)
        }
        isOpen = false
        if replacing { try? FileManager.default.removeItem(atPath: old) }
    }

    /// Removes the directory being built and what is in it.
    package func discard() {
        guard isOpen else { return }
        isOpen = false
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    /// Refuses a destination that is a file, or a directory that is not an earlier result.
    static func checkReplaceable(_ destination: String, marker: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw FileError.bundleIsFile(path: destination)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
        let hasSubdirectory = entries.contains { entry in
            var inner: ObjCBool = false
            return FileManager.default.fileExists(atPath: destination + "/" + entry, isDirectory: &inner)
                && inner.boolValue
        }
        guard entries.isEmpty || (entries.contains(marker) && !hasSubdirectory) else {
            throw FileError.foreignDirectory(path: destination, marker: marker)
        }
    }
}
