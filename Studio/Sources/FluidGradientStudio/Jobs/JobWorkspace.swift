import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's private temporary directory (mode 0700, made by `mkdtemp`), holding one
/// subdirectory per job; nothing else in the server writes files.
package struct JobWorkspace: Sendable {
    /// The directory's absolute path.
    package let path: String

    /// Makes a fresh private directory under `parent`.
    ///
    /// - Parameter parent: where to make it; the system's temporary directory when nil.
    /// - Throws: ``JobWorkspaceError`` when the directory cannot be made.
    package init(parent: String? = nil) throws(JobWorkspaceError) {
        let base = parent ?? FileManager.default.temporaryDirectory.path
        var template = Array((base + "/fluidgradient-studio.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw JobWorkspaceError(path: base, reason: String(cString: strerror(errno)))
        }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes the (empty, mode 0700) directory of job `id` and returns its path.
    ///
    /// - Throws: ``JobWorkspaceError`` when it cannot be made.
    func makeDirectory(for id: String) throws -> String {
        let directory = directory(for: id)
        guard mkdir(directory, 0o700) == 0 else {
            throw JobWorkspaceError(path: directory, reason: String(cString: strerror(errno)))
        }
        return directory
    }

    /// The path of job `id`'s directory, made or not.
    package func directory(for id: String) -> String { path + "/" + id }

    /// Removes job `id`'s directory and everything in it, if it is there.
    func removeDirectory(for id: String) {
        try? FileManager.default.removeItem(atPath: directory(for: id))
    }

    /// Removes the whole workspace.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The names in the workspace (job directories), for checking that nothing is left.
    package func entries() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }
}

/// The workspace or a job's directory could not be made.
package struct JobWorkspaceError: Error, Sendable, CustomStringConvertible {
    /// The directory that could not be made.
    package let path: String
    /// The system's reason.
    package let reason: String

    /// One line saying what failed.
    package var description: String { "cannot make the job directory \(path): \(reason)" }
}
