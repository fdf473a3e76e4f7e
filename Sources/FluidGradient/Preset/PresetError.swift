/// A preset (or manifest) that cannot be used: the file, the key path and what was
/// expected, as one line.
package struct PresetError: Error, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    package var file: String
    /// `speed`, `blobs[2].center`; empty for the document itself.
    package var path: String
    package var message: String
    /// Where the value at `path` starts in the file, when it is there to point at.
    package var line: Int?

    package init(file: String, path: String, message: String, line: Int? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.line = line
    }

    /// `file:line: path: message`, the form editors and terminals jump to.
    package var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return [place, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
