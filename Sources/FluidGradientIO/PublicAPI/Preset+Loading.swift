import FluidGradient
import Foundation

extension Preset {
    /// Reads a preset file: JSON with the keys of the command's `--preset` files.
    ///
    /// The preset is checked as it is read, so every value is inside its bounds.
    ///
    /// - Parameter url: A file URL. A pipe or FIFO is read to its end.
    /// - Throws: ``PresetError`` naming the file, the line and the key at fault when the
    ///   JSON or a value is wrong; ``FileError`` when the URL is not a file's or the file
    ///   cannot be read.
    public init(contentsOf url: URL) throws {
        guard url.isFileURL else {
            throw FileError.notAFileURL(url: url.absoluteString, what: "preset")
        }
        let path = url.path
        try self.init(json: try readFile(path, what: "preset"), file: path)
    }

    /// A built-in preset, such as `"aurora"`: the presets `fluidgradient presets list`
    /// shows, built into the library.
    ///
    /// - Parameter name: The preset's name, one of ``builtInNames``.
    /// - Returns: The preset, or nil when there is no built-in preset of that name.
    public static func builtIn(_ name: String) -> Preset? {
        try? PresetLibrary.builtIn(name)
    }

    /// The names of the built-in presets, sorted.
    public static var builtInNames: [String] { PresetLibrary.names }
}
