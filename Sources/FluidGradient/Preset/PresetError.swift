/// A preset (or manifest) that cannot be used: the file, the key path and what was
/// expected, as one line.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// `speed`, `blobs[2].center`; empty for the document itself.
    public var path: String
    public var message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        [file, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
