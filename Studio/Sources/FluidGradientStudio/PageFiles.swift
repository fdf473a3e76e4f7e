import Foundation

/// The studio page's files (`Page/`), embedded in the binary by the EmbedPage plugin, or
/// read from a directory while the page is being developed.
package struct PageFiles: Sendable {
    /// One file: its bytes and the media type it is served as.
    package struct File: Sendable {
        /// The file's bytes.
        package let bytes: [UInt8]
        /// The `Content-Type` it is served with.
        package let contentType: String
    }

    private let files: [String: File]

    /// The copy embedded in the binary.
    package static let embedded = PageFiles(
        files: Dictionary(
            uniqueKeysWithValues: embeddedPageFiles.map { entry in
                // The embedder wrote this base64 itself, so it always decodes.
                (entry.name, File(bytes: Array(Data(base64Encoded: entry.base64)!), name: entry.name))
            }))

    private init(files: [String: File]) { self.files = files }

    /// The files of `directory` (not its subdirectories), read once, for working on the page
    /// without rebuilding the binary.
    ///
    /// - Parameter directory: the folder holding `index.html` and the rest.
    /// - Throws: the file system's error when the folder or a file cannot be read.
    package init(directory: String) throws {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        var files: [String: File] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
        where !file.hasDirectoryPath && !file.lastPathComponent.hasPrefix(".") {
            let name = file.lastPathComponent
            files[name] = File(bytes: Array(try Data(contentsOf: file)), name: name)
        }
        self.init(files: files)
    }

    /// The file named `name` (`index.html`, `studio.js`), or nil.
    package subscript(name: String) -> File? { files[name] }

    /// Every file's name, sorted.
    package var names: [String] { files.keys.sorted() }
}

extension PageFiles.File {
    fileprivate init(bytes: [UInt8], name: String) {
        let types = [
            "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
            "json": "application/json",
        ]
        let ext = (name as NSString).pathExtension.lowercased()
        self.init(bytes: bytes, contentType: types[ext] ?? "application/octet-stream")
    }
}
