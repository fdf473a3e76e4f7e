import FluidGradient
import Foundation

extension Preset {
    /// Reads a preset file: JSON with the keys of the command's `--preset` files.
    ///
    /// The preset is checked as it is read, so every value is inside its bounds.
    ///
    /// - Parameter url: A file URL. A pipe or FIFO is read to its end.
    /// - Throws: ``RenderError/preset(_:)`` naming the file, the line and the key at fault
    ///   when the JSON or a value is wrong; ``RenderError/file(_:)`` when the URL is not a
    ///   file's or the file cannot be read.
    public init(contentsOf url: URL) throws(RenderError) {
        guard url.isFileURL else {
            throw .file(.notAFileURL(url: url.absoluteString, what: "preset"))
        }
        do {
            self = try PresetLibrary.file(url.path)
        } catch {
            throw RenderError(error, path: url.path)
        }
    }

    /// A built-in preset, such as `"aurora"`: the presets `fluidgradient presets list`
    /// shows, built into the library.
    ///
    /// - Parameter name: The preset's name, one of ``builtInNames``.
    /// - Throws: ``UnknownPresetError``, with the nearest name as its suggestion, when no
    ///   built-in preset has that name.
    public init(builtIn name: String) throws(UnknownPresetError) {
        self = try PresetLibrary.builtIn(name)
    }

    /// The names of the built-in presets, sorted.
    public static var builtInNames: [String] { PresetLibrary.names }
}
