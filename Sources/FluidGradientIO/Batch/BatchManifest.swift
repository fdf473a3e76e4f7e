import FluidGradient
import Foundation

/// A batch of renders as a matrix: palettes × sizes × formats, with shared defaults
/// and an output path template.
///
///     {
///       "output": "renders/{name}/{name}-{width}x{height}.{ext}",
///       "defaults": { "fps": 30, "duration": 4, "loop": true },
///       "palettes": [
///         { "preset": "aurora" },
///         { "name": "brand", "colors": ["#FF5F6D", "#FFC371"], "background": "#1B1B2F" },
///         { "name": "brand-night", "preset": "brand.json", "speed": 0.4 }
///       ],
///       "sizes": ["1920x1080", "1080x1920"],
///       "formats": ["mp4", "webm"],
///       "encodeSize": "auto"
///     }
///
/// A palette's settings are layered: its preset (built-in or file), then the
/// manifest's `defaults`, then a `palette` file's colours, then the entry's own keys.
package struct BatchManifest: Sendable {
    package enum Format: String, CaseIterable, Sendable {
        case mp4, mov, webm, gif, webp, apng, avif
        /// One still at time 0.
        case png
        /// A directory of everything a site needs for the loop (`render --bundle`); the
        /// template's `{ext}` is `bundle`.
        case bundle
    }

    package struct Palette: Sendable {
        package var name: String
        /// A built-in preset name or a preset file, resolved when jobs are made.
        package var preset: String?
        /// A palette file (JSON list or one colour per line) for the blob colours.
        package var paletteFile: String?
        /// The entry's own preset keys.
        package var settings: JSONObject
    }

    package static let keys = ["output", "defaults", "palettes", "sizes", "formats", "encodeSize"]
    package static let placeholders = ["name", "width", "height", "size", "ext"]
    /// The preset keys `defaults` may hold: all but what sets a palette apart.
    static let sharedKeys = PresetSchema.fields.filter { $0.manifest == .shared }.map(\.key)
    /// The preset keys a palette may hold, after its own `name`, `preset` and `palette`.
    static let paletteKeys = PresetSchema.fields.filter { $0.manifest != .none }.map(\.key)

    package var output: String
    package var defaults: JSONObject?
    package var palettes: [Palette]
    package var sizes: [(width: Int, height: Int)]
    package var formats: [Format]
    /// The size videos, animated images and bundles are encoded at, as `render --encode-size`
    /// takes it; nil for each format's own default (``EncodeSizeRequest/standard(for:)``).
    package var encodeSize: EncodeSizeRequest?

    /// Reads and validates a manifest. Values are checked now, so nothing renders
    /// from an invalid manifest; files it refers to are read when jobs are made.
    ///
    /// - Parameters:
    ///   - bytes: the manifest's JSON text.
    ///   - file: the manifest as the user named it, which errors name.
    /// - Throws: ``BatchManifestError`` saying where and why.
    package init(json bytes: [UInt8], file: String) throws(BatchManifestError) {
        let reader = ManifestReader(reader: JSONReader(file: file))
        let root = try reader.lift { () throws(PresetError) in
            try reader.reader.object(try reader.reader.parse(bytes), at: [], allowed: BatchManifest.keys)
        }
        output = "renders/{name}/{name}-{width}x{height}.{ext}"
        if let node = root["output"] {
            output = try reader.lift { () throws(PresetError) in try reader.reader.string(node, at: [.key("output")]) }
        }
        try reader.checkTemplate(output, node: root["output"] ?? root.node)
        if let node = root["defaults"] {
            defaults = try reader.lift { () throws(PresetError) in
                let object = try reader.reader.object(node, at: [.key("defaults")], allowed: BatchManifest.sharedKeys)
                var probe = Preset(colors: [])
                try probe.apply(object, reader: reader.reader)
                return object
            }
        }
        palettes = try reader.palettes(root)
        sizes = try reader.sizes(root)
        formats = try reader.formats(root)
        encodeSize = try reader.encodeSize(root)
        try checkOutputs(reader: reader, node: root["output"] ?? root.node)
    }

    /// Every job has an output path of its own, whose extension is its format's.
    private func checkOutputs(reader: ManifestReader, node: JSONNode) throws(BatchManifestError) {
        var paths: [String: Slot] = [:]
        for job in jobSlots {
            let path = outputPath(job.palette.name, job.size, job.format)
            if let other = paths[path] {
                // The placeholders that tell these two jobs apart.
                let missing = [
                    ("{name}", other.palette.name != job.palette.name), ("{size}", other.size != job.size),
                    ("{ext}", other.format != job.format),
                ].filter(\.1).map(\.0)
                let problem = BatchManifestError.Problem.sharedOutput(
                    template: output, path: path, jobs: [other.label, job.label], missing: missing)
                throw reader.error([.key("output")], node, problem)
            }
            paths[path] = job
            // The file's name must say what it holds, as render's -o does.
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            guard ext == job.format.rawValue else {
                let problem = BatchManifestError.Problem.wrongExtension(
                    template: output, job: job.label, path: path, found: ext, format: job.format.rawValue)
                throw reader.error([.key("output")], node, problem)
            }
        }
    }

    struct Slot {
        var index: Int
        var palette: Palette
        var paletteIndex: Int
        var size: (width: Int, height: Int)
        var format: Format
        var label: String { "\(palette.name) \(size.width)x\(size.height) \(format.rawValue)" }
    }

    /// Every (palette, size, format), in that nesting order.
    var jobSlots: [Slot] {
        var slots: [Slot] = []
        for (paletteIndex, palette) in palettes.enumerated() {
            for size in sizes {
                for format in formats {
                    slots.append(
                        Slot(
                            index: slots.count, palette: palette, paletteIndex: paletteIndex, size: size, format: format
                        ))
                }
            }
        }
        return slots
    }

    /// The output template filled in.
    package func outputPath(_ name: String, _ size: (width: Int, height: Int), _ format: Format) -> String {
        output.replacingOccurrences(of: "{name}", with: name)
            .replacingOccurrences(of: "{width}", with: String(size.width))
            .replacingOccurrences(of: "{height}", with: String(size.height))
            .replacingOccurrences(of: "{size}", with: "\(size.width)x\(size.height)")
            .replacingOccurrences(of: "{ext}", with: format.rawValue)
    }

    /// Expands the matrix into jobs, in a deterministic order. `loadPreset` and
    /// `loadPalette` read referenced files; a failure there fails that palette's jobs only.
    package func jobs(
        loadPreset: (String) -> Result<Preset, BatchJobError>, loadPalette: (String) -> Result<[RGBA], BatchJobError>
    ) -> [BatchJob] {
        let resolved = palettes.map { palette in resolve(palette, loadPreset: loadPreset, loadPalette: loadPalette) }
        return jobSlots.map { slot in
            BatchJob(
                index: slot.index, name: slot.palette.name, width: slot.size.width, height: slot.size.height,
                format: slot.format, output: outputPath(slot.palette.name, slot.size, slot.format),
                encodeSize: encodeSize,
                preset: resolved[slot.paletteIndex].map { preset in
                    var sized = preset
                    (sized.width, sized.height) = slot.size
                    return sized
                })
        }
    }

    /// A palette's preset: its preset, then `defaults`, then its palette file, then its own keys.
    private func resolve(
        _ palette: Palette, loadPreset: (String) -> Result<Preset, BatchJobError>,
        loadPalette: (String) -> Result<[RGBA], BatchJobError>
    ) -> Result<Preset, BatchJobError> {
        // Every key was checked when the manifest was read; applying them again cannot fail.
        let reader = JSONReader(file: "manifest")
        var preset = Preset(colors: [])
        if let reference = palette.preset {
            switch loadPreset(reference) {
            case .success(let loaded): preset = loaded
            case .failure(let error): return .failure(error)
            }
        }
        do throws(PresetError) {
            if let defaults { try preset.apply(defaults, reader: reader) }
            if let file = palette.paletteFile {
                switch loadPalette(file) {
                case .success(let colors):
                    preset.colors = colors
                    preset.blobs = nil
                case .failure(let error): return .failure(error)
                }
            }
            try preset.apply(palette.settings, reader: reader)
        } catch {
            return .failure(.preset(error))
        }
        guard !preset.colors.isEmpty || preset.blobs != nil else { return .failure(.noColors(palette: palette.name)) }
        preset.name = palette.name
        return .success(preset)
    }
}
