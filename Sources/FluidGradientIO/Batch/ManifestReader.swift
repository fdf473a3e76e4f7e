import FluidGradient
import Foundation

/// Reads the parts of a batch manifest, each checked as it is read.
struct ManifestReader {
    /// Reads the values inside, as a preset's are read.
    let reader: JSONReader

    /// A problem with the manifest's structure, at `node`'s line.
    func error(_ path: JSONPath, _ node: JSONNode, _ problem: BatchManifestError.Problem) -> BatchManifestError {
        .manifest(file: reader.file, line: node.line, path: path, problem: problem)
    }

    /// Runs `body`, a read of preset values, reporting its error as the manifest's.
    func lift<Value>(_ body: () throws(PresetError) -> Value) throws(BatchManifestError) -> Value {
        do {
            return try body()
        } catch {
            throw .preset(error)
        }
    }

    /// The non-empty list under `key`; `hint` finishes the sentence for a manifest without it.
    func list(_ root: JSONObject, _ key: String, of item: String, hint: String) throws(BatchManifestError) -> [JSONNode]
    {
        guard let node = root[key] else { throw error([.key(key)], root.node, .missingList(key, hint: hint)) }
        let nodes = try lift { () throws(PresetError) in try reader.array(node, at: [.key(key)]) }
        guard !nodes.isEmpty else { throw error([.key(key)], node, .emptyList(item: item)) }
        return nodes
    }

    /// Checks that `template` is a file path whose placeholders are all known.
    func checkTemplate(_ template: String, node: JSONNode) throws(BatchManifestError) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw error([.key("output")], node, .unclosedPlaceholder(template: template))
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard BatchManifest.placeholders.contains(name) else {
                let allowed = BatchManifest.placeholders.map { "{\($0)}" }
                let reason = PresetError.Reason.notOneOf("{\(name)}", kind: "a placeholder", allowed: allowed)
                throw .preset(reader.error([.key("output")], node, reason))
            }
            rest = rest[rest.index(after: close)...]
        }
        guard !template.isEmpty, !template.hasSuffix("/") else { throw error([.key("output")], node, .notATemplate) }
    }

    /// The `palettes`, each with a name of its own.
    func palettes(_ root: JSONObject) throws(BatchManifestError) -> [BatchManifest.Palette] {
        let nodes = try list(root, "palettes", of: "palette", hint: "a list of presets or colour sets")
        var palettes: [BatchManifest.Palette] = []
        for (index, node) in nodes.enumerated() {
            let palette = try self.palette(node, at: [.key("palettes"), .index(index)])
            if let first = palettes.firstIndex(where: { $0.name == palette.name }) {
                // The name as written, or the entry that takes it from its preset.
                var nameNode = node
                if case .object(let members) = node.value, let written = members.first(where: { $0.key == "name" }) {
                    nameNode = written.value
                }
                throw error(
                    [.key("palettes"), .index(index), .key("name")], nameNode,
                    .duplicateName(palette.name, first: first))
            }
            palettes.append(palette)
        }
        return palettes
    }

    /// The `sizes`, each listed once.
    func sizes(_ root: JSONObject) throws(BatchManifestError) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
        for (index, node) in try list(root, "sizes", of: "size", hint: "such as [\"1920x1080\"]").enumerated() {
            let path: JSONPath = [.key("sizes"), .index(index)]
            let size = try lift { () throws(PresetError) in
                let text = try reader.string(node, at: path)
                guard let size = PresetLimits.parseSize(text) else { throw reader.error(path, node, .notASize(text)) }
                if let problem = PresetLimits.checkSize(width: size.width, height: size.height) {
                    throw reader.error(path, node, problem)
                }
                return size
            }
            if let first = sizes.firstIndex(where: { $0 == size }) {
                throw error(path, node, .duplicateSize(width: size.width, height: size.height, first: first))
            }
            sizes.append(size)
        }
        return sizes
    }

    /// The `formats`, each listed once.
    func formats(_ root: JSONObject) throws(BatchManifestError) -> [BatchManifest.Format] {
        var formats: [BatchManifest.Format] = []
        for (index, node) in try list(root, "formats", of: "format", hint: "such as [\"mp4\", \"webm\"]").enumerated() {
            let path: JSONPath = [.key("formats"), .index(index)]
            let format = try lift { () throws(PresetError) in
                let text = try reader.string(node, at: path)
                guard let format = BatchManifest.Format(rawValue: text.lowercased()) else {
                    let allowed = BatchManifest.Format.allCases.map(\.rawValue)
                    throw reader.error(path, node, .notOneOf(text, kind: "a format", allowed: allowed))
                }
                return format
            }
            if let first = formats.firstIndex(of: format) {
                throw error(path, node, .duplicateFormat(format.rawValue, first: first))
            }
            formats.append(format)
        }
        return formats
    }

    /// The `encodeSize`, if the manifest gives one: `auto`, `full` or `WxH`.
    func encodeSize(_ root: JSONObject) throws(BatchManifestError) -> EncodeSizeRequest? {
        guard let node = root["encodeSize"] else { return nil }
        let text = try lift { () throws(PresetError) in try reader.string(node, at: [.key("encodeSize")]) }
        guard let request = try? EncodeSizeRequest(parsing: text) else {
            throw error([.key("encodeSize")], node, .notAnEncodeSize(text))
        }
        return request
    }

    /// One entry of `palettes`: a preset, a palette file or colours, and preset keys.
    func palette(_ node: JSONNode, at path: JSONPath) throws(BatchManifestError) -> BatchManifest.Palette {
        let allowed = ["name", "preset", "palette"] + BatchManifest.paletteKeys
        let object = try lift { () throws(PresetError) in try reader.object(node, at: path, allowed: allowed) }
        let reference = try optionalString(object, "preset")
        let paletteFile = try optionalString(object, "palette")
        guard reference != nil || paletteFile != nil || object["colors"] != nil || object["blobs"] != nil else {
            throw error(path, node, .paletteNeedsColors)
        }
        if paletteFile != nil, let key = ["colors", "blobs"].first(where: { object[$0] != nil }) {
            throw error(path, node, .twoColorSources(key))
        }
        var name: String
        if let written = try optionalString(object, "name") {
            name = written
        } else if let reference {
            name = reference.split(separator: "/").last.map { String($0) } ?? reference
            if name.hasSuffix(".json") { name.removeLast(5) }
        } else {
            throw error(path, node, .paletteNeedsName)
        }
        let usable = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        guard !name.isEmpty, usable, !name.hasPrefix(".") else {
            throw error(object.path("name"), object["name"] ?? node, .unusableName(name))
        }
        // The entry's own keys are checked now by applying them to a scratch preset.
        let own = object.members.filter { !["name", "preset", "palette"].contains($0.key) }
        let settings = JSONObject(members: own, path: path, line: node.line)
        try lift { () throws(PresetError) in
            var probe = Preset(colors: [])
            try probe.apply(settings, reader: reader)
        }
        return BatchManifest.Palette(name: name, preset: reference, paletteFile: paletteFile, settings: settings)
    }

    /// The string under `key`, if the object has one.
    private func optionalString(_ object: JSONObject, _ key: String) throws(BatchManifestError) -> String? {
        guard let node = object[key] else { return nil }
        return try lift { () throws(PresetError) in try reader.string(node, at: object.path(key)) }
    }
}
