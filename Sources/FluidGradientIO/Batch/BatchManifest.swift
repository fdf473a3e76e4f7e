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
    /// The preset keys `defaults` may hold: all but what sets a palette apart.
    static let sharedKeys = PresetSchema.fields.filter { $0.manifest == .shared }.map(\.key)
    /// The preset keys a palette may hold, after its own `name`, `preset` and `palette`.
    static let paletteKeys = PresetSchema.fields.filter { $0.manifest != .none }.map(\.key)

    package var output: String
    package var defaults: JSONObject?
    package var palettes: [Palette]
    package var sizes: [(width: Int, height: Int)]
    package var formats: [Format]

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
        loadPreset: (String) -> Result<Preset, BatchJobError>, loadPalette: (String) -> Result<[RGBA], BatchJobError>
    ) -> [BatchJob] {
        let resolved = palettes.map { palette in resolve(palette, loadPreset: loadPreset, loadPalette: loadPalette) }
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

/// One render of a batch.
package struct BatchJob: Sendable {
    package var index: Int
    package var name: String
    package var width: Int
    package var height: Int
    package var format: BatchManifest.Format
    package var output: String
    /// The preset to render, or why it could not be assembled.
    package var preset: Result<Preset, BatchJobError>

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
    /// `FLUIDGRADIENT_SHARD_COUNT` without an index is an error.
    /// A variable set to nothing counts as unset, as `VAR= command` means in a shell.
    ///
    /// - Parameters:
    ///   - environment: the process's environment variables.
    ///   - count: the number of shards given on the command line, if any.
    /// - Returns: the shard, or nil when the environment names none.
    /// - Throws: ``ShardEnvironmentError`` when the variables (with `count`) do not make a shard.
    package static func fromEnvironment(
        _ environment: [String: String], count: Int?
    ) throws(ShardEnvironmentError) -> Shard? {
        let environment = environment.filter { !$0.value.isEmpty }
        /// A numeric variable: nil when unset.
        func number(_ name: String) throws(ShardEnvironmentError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingSpaces()) else { throw .notANumber(name, text) }
            return value
        }
        /// `count`, or else the count variable `name`.
        func total(_ name: String) throws(ShardEnvironmentError) -> Int? {
            if let count { return count }
            return try number(name)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text), index >= 0 else { throw .notAnIndex(text) }
            guard let total = try total("FLUIDGRADIENT_SHARD_COUNT") else { throw .indexWithoutCount }
            guard total >= 1, index < total else { throw .indexNotBelowCount(index, total) }
            return Shard(index: index, count: total)
        }
        if let text = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = Int(text) else { throw .notANumber("SLURM_ARRAY_TASK_ID", text) }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard let total = try total("SLURM_ARRAY_TASK_COUNT") else { throw .taskWithoutCount }
            guard total >= 1 else { throw .noTasks(total) }
            // Both come from outside: their difference may not fit.
            let (index, overflow) = id.subtractingReportingOverflow(minimum)
            guard !overflow, (0..<total).contains(index) else { throw .taskOutside(id, minimum: minimum, count: total) }
            return Shard(index: index, count: total)
        }
        if count != nil { throw .countWithoutIndex }
        if let text = environment["FLUIDGRADIENT_SHARD_COUNT"] { throw .countVariableWithoutIndex(text) }
        return nil
    }
}

/// Environment variables of a batch scheduler that do not make a shard.
package enum ShardEnvironmentError: Error, Equatable, CustomStringConvertible {
    /// A variable that should be a number is not: its name and value.
    case notANumber(String, String)
    /// `JOB_COMPLETION_INDEX` is not an index 0 or more.
    case notAnIndex(String)
    /// `JOB_COMPLETION_INDEX` without a shard count.
    case indexWithoutCount
    /// `JOB_COMPLETION_INDEX` at or past the shard count.
    case indexNotBelowCount(Int, Int)
    /// `SLURM_ARRAY_TASK_ID` without `SLURM_ARRAY_TASK_COUNT` or a count.
    case taskWithoutCount
    /// `SLURM_ARRAY_TASK_COUNT` below 1.
    case noTasks(Int)
    /// `SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN` is not one of the tasks.
    case taskOutside(Int, minimum: Int, count: Int)
    /// `--shard-count` without an index variable.
    case countWithoutIndex
    /// `FLUIDGRADIENT_SHARD_COUNT` without an index variable: its value.
    case countVariableWithoutIndex(String)

    /// One sentence saying which variable is wrong and what to do.
    package var description: String {
        switch self {
        case .notANumber(let name, let text): "\(name)=\(text) is not a number"
        case .notAnIndex(let text):
            "JOB_COMPLETION_INDEX=\(text) is not an index; it should be this pod's index, 0 or more, "
                + "as Kubernetes sets it"
        case .indexWithoutCount:
            "JOB_COMPLETION_INDEX is set but not the number of shards: pass --shard-count N or set "
                + "FLUIDGRADIENT_SHARD_COUNT (the Job's completions)"
        case .indexNotBelowCount(let index, let total):
            "JOB_COMPLETION_INDEX=\(index) is not below the shard count \(total)"
        case .taskWithoutCount: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard-count N"
        case .noTasks(let total): "SLURM_ARRAY_TASK_COUNT=\(total) is not a number of tasks; it should be 1 or more"
        case .taskOutside(let id, let minimum, let total):
            "SLURM_ARRAY_TASK_ID=\(id) (from \(minimum)) is not one of \(total) tasks; "
                + "use a contiguous --array such as 0-\(total - 1)"
        case .countWithoutIndex:
            "--shard-count needs a shard index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID; neither is set "
                + "(use --shard K/N to pick one by hand)"
        case .countVariableWithoutIndex(let text):
            "FLUIDGRADIENT_SHARD_COUNT=\(text) is set but no shard index is: "
                + "set JOB_COMPLETION_INDEX, or pass --shard K/N"
        }
    }
}
