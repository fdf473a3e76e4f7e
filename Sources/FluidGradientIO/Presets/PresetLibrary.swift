import FluidGradient
import Foundation
import SystemPackage

/// The built-in presets (embedded from `Presets/` at build time) and preset files.
package enum PresetLibrary {
    /// The preset used when none is named.
    package static let defaultName = "default"

    /// Built-in preset names, sorted.
    package static var names: [String] { builtInPresetFiles.map(\.name) }

    /// The exact bytes of a built-in preset file, as embedded.
    package static func builtInBytes(_ name: String) -> [UInt8]? {
        guard let entry = builtInPresetFiles.first(where: { $0.name == name }),
            let data = Data(base64Encoded: entry.base64)
        else { return nil }
        return [UInt8](data)
    }

    /// The built-in preset `name`.
    ///
    /// - Throws: ``UnknownPresetError`` when there is none of that name.
    package static func builtIn(_ name: String) throws(UnknownPresetError) -> Preset {
        guard let bytes = builtInBytes(name) else {
            throw UnknownPresetError(name: name, among: names)
        }
        do {
            return try Preset(json: bytes, file: "\(name) (built-in)")
        } catch {
            // Every built-in preset is parsed by the tests (PresetLibraryTests).
            preconditionFailure("the built-in preset \(name) does not parse: \(error)")
        }
    }

    /// A built-in name, or a path to a preset file (anything with a `/` or ending in
    /// `.json`, or an existing file).
    package static func load(_ nameOrPath: String) throws -> Preset {
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath, builtInBytes(nameOrPath) != nil { return try builtIn(nameOrPath) }
        if looksLikePath || FileManager.default.fileExists(atPath: nameOrPath) {
            return try file(nameOrPath)
        }
        return try builtIn(nameOrPath)
    }

    package static func file(_ path: String) throws -> Preset {
        let bytes = try readFile(path, what: "preset")
        return try Preset(json: bytes, file: path)
    }
}

/// The bytes of a file the user named, or a ``FileError`` that says why not. Pipes
/// (`<(...)`, `/dev/stdin`, a FIFO) are read to their end, up to `limit` bytes
/// (``largestReadFile`` unless given), waiting where an interrupt can stop the wait.
package func readFile(_ path: String, what: String, limit: Int = largestReadFile) throws -> [UInt8] {
    // Non-blocking, so neither opening a FIFO that has no writer yet nor reading an
    // empty pipe holds off Ctrl-C; `poll` does the waiting instead.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
        throw FileError.cannotRead(path: path, what: what, errno: .last)
    }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        throw FileError.readDirectory(path: path, what: what)
    }
    let failure = { (errno: Errno) in FileError.cannotRead(path: path, what: what, errno: errno) }
    guard let bytes = try readToEnd(descriptor, limit: limit, failure: failure) else {
        throw FileError.tooLarge(path: path, what: what, limit: limit)
    }
    return bytes
}

/// The most ``readFile(_:what:)`` reads: a preset, palette or manifest is a small text file.
package let largestReadFile = 64 << 20
