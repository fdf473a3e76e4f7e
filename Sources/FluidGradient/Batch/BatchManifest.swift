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
///       "formats": ["mp4", "webm"]
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

    package static let keys = ["output", "defaults", "palettes", "sizes", "formats"]
    package static let placeholders = ["name", "width", "height", "size", "ext"]
    static let sharedKeys = Preset.keys.filter { !["name", "description", "colors", "blobs", "highlightBlobs", "size"].contains($0) }

    package var output: String
    package var defaults: JSONObject?
    package var palettes: [Palette]
    package var sizes: [(width: Int, height: Int)]
    package var formats: [Format]

    /// Reads and validates a manifest. Values are checked now, so nothing renders
    /// from an invalid manifest; files it refers to are read when jobs are made.
    package init(json bytes: [UInt8], file: String) throws(PresetError) {
        let reader = JSONReader(file: file)
        self = try reader.read(bytes) { root throws(PresetError) in try BatchManifest(document: root, reader: reader) }
    }

    private init(document: JSONNode, reader: JSONReader) throws(PresetError) {
        let root = try reader.object(document, at: "", allowed: BatchManifest.keys)
        output = "renders/{name}/{name}-{width}x{height}.{ext}"
        if let node = root["output"] { output = try reader.string(node, at: "output") }
        try BatchManifest.checkTemplate(output, reader: reader)
        if let node = root["defaults"] {
            let object = try reader.object(node, at: "defaults", allowed: BatchManifest.sharedKeys)
            var probe = Preset(colors: [])
            try probe.apply(object, reader: reader)
            defaults = object
        }

        let paletteNodes = try BatchManifest.list(root, "palettes", of: "palette", missing: "a list of presets or colour sets", reader: reader)
        palettes = []
        for (index, node) in paletteNodes.enumerated() {
            palettes.append(try BatchManifest.palette(node, at: "palettes[\(index)]", reader: reader))
        }
        var seen: [String: Int] = [:]
        for (index, palette) in palettes.enumerated() {
            if let first = seen[palette.name] {
                throw reader.error("palettes[\(index)].name", "\"\(palette.name)\" is already the name of palettes[\(first)]; give each palette its own name")
            }
            seen[palette.name] = index
        }

        let sizeNodes = try BatchManifest.list(root, "sizes", of: "size", missing: "such as [\"1920x1080\"]", reader: reader)
        sizes = []
        for (index, node) in sizeNodes.enumerated() {
            let text = try reader.string(node, at: "sizes[\(index)]")
            guard let size = PresetLimits.parseSize(text) else {
                throw reader.error("sizes[\(index)]", "\"\(text)\" is not a size; expected WIDTHxHEIGHT such as \"1920x1080\"")
            }
            if let problem = PresetLimits.checkSize(width: size.width, height: size.height) { throw reader.error("sizes[\(index)]", problem) }
            if let first = sizes.firstIndex(where: { $0 == size }) {
                throw reader.error("sizes[\(index)]", "\(size.width)x\(size.height) is already sizes[\(first)]; list each size once")
            }
            sizes.append(size)
        }

        let formatNodes = try BatchManifest.list(root, "formats", of: "format", missing: "such as [\"mp4\", \"webm\"]", reader: reader)
        formats = []
        for (index, node) in formatNodes.enumerated() {
            let text = try reader.string(node, at: "formats[\(index)]")
            guard let format = Format(rawValue: text.lowercased()) else {
                throw reader.error("formats[\(index)]", "\"\(text)\" is not a format; expected mp4, mov, webm, gif, webp, apng, avif, png or bundle")
            }
            if let first = formats.firstIndex(of: format) {
                throw reader.error("formats[\(index)]", "\(format.rawValue) is already formats[\(first)]; list each format once")
            }
            formats.append(format)
        }

        var paths: [String: Slot] = [:]
        for job in jobSlots {
            let path = outputPath(job.palette.name, job.size, job.format)
            if let other = paths[path] {
                // The placeholders that tell these two jobs apart.
                let missing = [("{name}", other.palette.name != job.palette.name), ("{size}", other.size != job.size), ("{ext}", other.format != job.format)]
                    .filter(\.1).map(\.0)
                throw reader.error("output", "\"\(output)\" gives \(path) to both \(other.label) and \(job.label); add \(missing.joined(separator: " or ")) so each output has its own path")
            }
            paths[path] = job
            // The file's name must say what it holds, as render's -o does.
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            guard ext == job.format.rawValue else {
                let what = ext.isEmpty ? "a name without an extension" : "a .\(ext) name"
                throw reader.error(
                    "output", "\"\(output)\" gives \(job.label) \(what), \(path); end the template in .{ext} (or .\(job.format.rawValue))")
            }
        }
    }

    /// The non-empty list under `key`; `missing` finishes the sentence for a manifest without it.
    private static func list(
        _ root: JSONObject, _ key: String, of item: String, missing: String, reader: JSONReader
    ) throws(PresetError) -> [JSONNode] {
        guard let node = root[key] else { throw reader.error(key, "missing: a manifest needs \"\(key)\", \(missing)") }
        let nodes = try reader.array(node, at: key)
        guard !nodes.isEmpty else { throw reader.error(key, "expected at least one \(item)") }
        return nodes
    }

    private static func checkTemplate(_ template: String, reader: JSONReader) throws(PresetError) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw reader.error("output", "an unclosed \"{\" in \"\(template)\"")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard placeholders.contains(name) else {
                throw reader.error("output", "\"{\(name)}\" is not a placeholder; expected {name}, {width}, {height}, {size} or {ext}")
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !template.isEmpty, !template.hasSuffix("/") else { throw reader.error("output", "expected a file path template") }
    }

    private static func palette(_ node: JSONNode, at path: String, reader: JSONReader) throws(PresetError) -> Palette {
        let allowed = ["name", "preset", "palette"] + Preset.keys.filter { $0 != "size" && $0 != "name" }
        let object = try reader.object(node, at: path, allowed: allowed)
        var reference: String?
        if let node = object["preset"] { reference = try reader.string(node, at: object.path("preset")) }
        var paletteFile: String?
        if let node = object["palette"] { paletteFile = try reader.string(node, at: object.path("palette")) }
        guard reference != nil || paletteFile != nil || object["colors"] != nil || object["blobs"] != nil else {
            throw reader.error(path, "a palette needs \"preset\", \"palette\", \"colors\" or \"blobs\"")
        }
        if paletteFile != nil, let key = ["colors", "blobs"].first(where: { object[$0] != nil }) {
            throw reader.error(path, "\"palette\" and \"\(key)\" both set the blob colours; give one")
        }
        var name: String
        if let node = object["name"] {
            name = try reader.string(node, at: object.path("name"))
        } else if let reference {
            name = reference.split(separator: "/").last.map { String($0) } ?? reference
            if name.hasSuffix(".json") { name.removeLast(5) }
        } else {
            throw reader.error(path, "a palette without \"preset\" needs a \"name\"")
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }), !name.hasPrefix(".") else {
            throw reader.error(object.path("name"), "\"\(name)\" is not a usable name: use letters, digits, '-', '_' and '.'")
        }
        // The entry's own keys are checked now by applying them to a scratch preset.
        let settings = JSONObject(members: object.members.filter { !["name", "preset", "palette"].contains($0.key) }, path: path)
        var probe = Preset(colors: [])
        try probe.apply(settings, reader: reader)
        return Palette(name: name, preset: reference, paletteFile: paletteFile, settings: settings)
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
                    slots.append(Slot(index: slots.count, palette: palette, paletteIndex: paletteIndex, size: size, format: format))
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
        loadPreset: (String) -> Result<Preset, PresetError>, loadPalette: (String) -> Result<[RGBA], PresetError>
    ) -> [BatchJob] {
        let reader = JSONReader(file: "manifest")
        let resolved: [Result<Preset, PresetError>] = palettes.map { palette in
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
                return .failure(error)
            }
            guard !preset.colors.isEmpty || preset.blobs != nil else {
                return .failure(PresetError(file: palette.name, path: "colors", message: "the palette has no colours"))
            }
            preset.name = palette.name
            return .success(preset)
        }
        return jobSlots.map { slot in
            BatchJob(
                index: slot.index, name: slot.palette.name, width: slot.size.width, height: slot.size.height,
                format: slot.format, output: outputPath(slot.palette.name, slot.size, slot.format),
                preset: resolved[slot.paletteIndex].map { preset in
                    var sized = preset
                    (sized.width, sized.height) = slot.size
                    return sized
                })
        }
    }
}

/// One render of a batch.
package struct BatchJob: Sendable {
    package var index: Int
    package var name: String
    package var width: Int
    package var height: Int
    package var format: BatchManifest.Format
    package var output: String
    /// The preset to render, or why it could not be assembled.
    package var preset: Result<Preset, PresetError>

    package var label: String { "\(name) \(width)x\(height) \(format.rawValue)" }

    /// Frames the job renders: a PNG is one still.
    package func frameCount(of preset: Preset) -> Int { format == .png ? 1 : preset.frameCount }

    /// The sidecar of a finished output, canonical JSON: everything the output depends on
    /// (the tool's version, the format, the frame count and the full preset; equal
    /// inputs render identical files) and the output's size, so an output truncated
    /// since is not taken for complete. Nil when the job's preset did not load.
    package func sidecar(version: String, outputBytes: Int?) -> String? {
        guard case .success(let preset) = preset else { return nil }
        var members: [(String, JSONNode)] = [
            ("producedBy", JSONNode(.string("fluidgradient \(version)"))),
            ("format", JSONNode(.string(format.rawValue))),
            ("frames", JSONNode(.number(Double(frameCount(of: preset))))),
            ("preset", JSONNode(preset.jsonValue)),
        ]
        if let outputBytes { members.append(("outputBytes", JSONNode(.number(Double(outputBytes))))) }
        return JSONValue.object(members).serialized() + "\n"
    }
}

/// Which 1/N share of a batch's jobs to render: jobs whose index is `index` modulo `count`.
package struct Shard: Equatable, Sendable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    package static let all = Shard(index: 0, count: 1)

    package func includes(_ job: Int) -> Bool { job % count == index }

    package var description: String { "\(index)/\(count)" }

    /// `K/N`, with 0 ≤ K < N.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/").map { Int(String($0).trimmingSpaces()) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (0..<count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    /// The shard the environment of a batch scheduler assigns, if any:
    /// Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, with the count from `count` or
    /// else `FLUIDGRADIENT_SHARD_COUNT`) or Slurm job arrays (`SLURM_ARRAY_TASK_ID` −
    /// `SLURM_ARRAY_TASK_MIN`, of `count` or else `SLURM_ARRAY_TASK_COUNT`). `count` or
    /// `FLUIDGRADIENT_SHARD_COUNT` without an index is an error. Errors are one sentence.
    /// A variable set to nothing counts as unset, as `VAR= command` means in a shell.
    package static func fromEnvironment(_ environment: [String: String], count: Int?) throws(PresetError) -> Shard? {
        let environment = environment.filter { !$0.value.isEmpty }
        func failure(_ message: String) -> PresetError { PresetError(file: "environment", path: "", message: message) }
        /// A numeric variable: nil when unset.
        func number(_ name: String) throws(PresetError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingSpaces()) else { throw failure("\(name)=\(text) is not a number") }
            return value
        }
        /// `count`, or else the count variable `name`.
        func total(_ name: String) throws(PresetError) -> Int? {
            if let count { return count }
            return try number(name)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text), index >= 0 else { throw failure("JOB_COMPLETION_INDEX=\(text) is not an index; it should be this pod's index, 0 or more, as Kubernetes sets it") }
            guard let total = try total("FLUIDGRADIENT_SHARD_COUNT") else {
                throw failure("JOB_COMPLETION_INDEX is set but not the number of shards: pass --shard-count N or set FLUIDGRADIENT_SHARD_COUNT (the Job's completions)")
            }
            guard total >= 1, index < total else { throw failure("JOB_COMPLETION_INDEX=\(index) is not below the shard count \(total)") }
            return Shard(index: index, count: total)
        }
        if let text = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = Int(text) else { throw failure("SLURM_ARRAY_TASK_ID=\(text) is not a number") }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard let total = try total("SLURM_ARRAY_TASK_COUNT") else {
                throw failure("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard-count N")
            }
            guard total >= 1 else {
                throw failure("SLURM_ARRAY_TASK_COUNT=\(total) is not a number of tasks; it should be 1 or more")
            }
            // Both come from outside: their difference may not fit.
            let (index, overflow) = id.subtractingReportingOverflow(minimum)
            guard !overflow, (0..<total).contains(index) else {
                throw failure("SLURM_ARRAY_TASK_ID=\(id) (from \(minimum)) is not one of \(total) tasks; use a contiguous --array such as 0-\(total - 1)")
            }
            return Shard(index: index, count: total)
        }
        if count != nil {
            throw failure("--shard-count needs a shard index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID; neither is set (use --shard K/N to pick one by hand)")
        }
        if let text = environment["FLUIDGRADIENT_SHARD_COUNT"] {
            throw failure("FLUIDGRADIENT_SHARD_COUNT=\(text) is set but no shard index is: set JOB_COMPLETION_INDEX, or pass --shard K/N")
        }
        return nil
    }
}

import Foundation
