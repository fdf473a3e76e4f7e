import FluidGradient
import Foundation

/// One render of a batch.
package struct BatchJob: Sendable {
    package var index: Int
    package var name: String
    package var width: Int
    package var height: Int
    package var format: BatchManifest.Format
    package var output: String
    /// The manifest's or `--encode-size`'s encode size; nil for the format's own default.
    package var encodeSize: EncodeSizeRequest?
    /// The preset to render, or why it could not be assembled.
    package var preset: Result<Preset, BatchJobError>

    package init(
        index: Int, name: String, width: Int, height: Int, format: BatchManifest.Format, output: String,
        encodeSize: EncodeSizeRequest? = nil, preset: Result<Preset, BatchJobError>
    ) {
        self.index = index
        self.name = name
        self.width = width
        self.height = height
        self.format = format
        self.output = output
        self.encodeSize = encodeSize
        self.preset = preset
    }

    package var label: String { "\(name) \(width)x\(height) \(format.rawValue)" }

    /// Frames the job renders: a PNG is one still.
    package func frameCount(of preset: Preset) -> Int { format == .png ? 1 : preset.frameCount }

    /// The size `preset` is encoded at for this job, as `render` chooses it: the request,
    /// or `auto` for every delivery format and `full` for `.mov`; nil for a PNG still. A
    /// bundle's loop is grain-free (its page lays the grain), so its size is the one without.
    ///
    /// - Throws: ``OutputError`` for a requested size the output cannot take.
    package func encodeSize(of preset: Preset) throws -> EncodeSize? {
        let container: VideoContainer
        if format == .bundle {
            container = .mp4
        } else if let video = VideoContainer(rawValue: format.rawValue) {
            container = video
        } else {
            return nil
        }
        return try (encodeSize ?? .standard(for: container)).resolve(
            for: format == .bundle ? preset.withoutGrain : preset, container: container, path: output)
    }

    /// The sidecar of a finished output, canonical JSON: everything the output depends on
    /// (the tool's version, the format, the frame count and the full preset; equal
    /// inputs render identical files), the encode size where it is not the output's, and the
    /// output's size, so an output truncated since is not taken for complete. Nil when the
    /// job's preset did not load.
    package func sidecar(version: String, outputBytes: Int?) -> String? {
        guard case .success(let preset) = preset else { return nil }
        var members: [(String, JSONNode)] = [
            ("producedBy", JSONNode(.string("fluidgradient \(version)"))),
            ("format", JSONNode(.string(format.rawValue))),
            ("frames", JSONNode(.number(Double(frameCount(of: preset))))),
            ("preset", JSONNode(preset.jsonValue)),
        ]
        if let encoded = try? encodeSize(of: preset), !encoded.isFullSize(of: preset) {
            members.append(("encodeSize", JSONNode(.string("\(encoded.width)x\(encoded.height)"))))
        }
        if let outputBytes { members.append(("outputBytes", JSONNode(.number(Double(outputBytes))))) }
        return JSONValue.object(members).serialized() + "\n"
    }
}

/// Why a batch job's preset could not be assembled.
package enum BatchJobError: Error, Equatable, CustomStringConvertible {
    /// The preset or palette file it names is invalid.
    case preset(PresetError)
    /// A file it names cannot be read or found: the message of the error that said so.
    case unreadable(String)
    /// Its palette ends up with neither colours nor blobs.
    case noColors(palette: String)

    package var description: String {
        switch self {
        case .preset(let error): error.description
        case .unreadable(let message): message
        case .noColors(let palette): "\(palette): colors: the palette has no colours"
        }
    }
}
