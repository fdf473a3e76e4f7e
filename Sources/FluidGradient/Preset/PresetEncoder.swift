extension Preset {
    /// The preset as a JSON document in the file contract of DESIGN section 8. Name,
    /// description, colours and background are always written; other keys only when
    /// they differ from their defaults. Reading it back gives an equal preset.
    package var jsonValue: JSONValue {
        let defaults = Preset(colors: [])
        var members: [(String, JSONValue)] = [
            ("name", .string(name)),
            ("description", .string(description)),
        ]
        func list(_ colors: [RGBA]) -> JSONValue { .array(colors.map { JSONNode(.string($0.hex)) }) }
        if !colors.isEmpty || blobs == nil { members.append(("colors", list(colors))) }
        if !highlights.isEmpty { members.append(("highlights", list(highlights))) }
        members.append(("background", background.jsonValue))
        func number(_ key: String, _ value: Double, _ defaultValue: Double) {
            if value != defaultValue { members.append((key, .number(value))) }
        }
        number("speed", speed, defaults.speed)
        number("blur", blur, defaults.blur)
        if seed != defaults.seed { members.append(("seed", .number(Double(seed)))) }
        func range(_ key: String, _ value: ParameterRange, _ defaultValue: ParameterRange) {
            guard value != defaultValue else { return }
            var fields: [(String, JSONValue)] = [("min", .number(value.min)), ("max", .number(value.max))]
            if let step = value.step { fields.append(("step", .number(step))) }
            members.append((key, JSONValue.object(fields.map { ($0.0, JSONNode($0.1)) })))
        }
        range("blobSize", ranges.size, defaults.ranges.size)
        range("blobAspect", ranges.aspect, defaults.ranges.aspect)
        range("opacity", ranges.opacity, defaults.ranges.opacity)
        range("retargetInterval", ranges.retargetInterval, defaults.ranges.retargetInterval)
        if edges != defaults.edges { members.append(("edges", .string(edges.rawValue))) }
        if (width, height) != (defaults.width, defaults.height) { members.append(("size", .string("\(width)x\(height)"))) }
        number("fps", fps, defaults.fps)
        number("duration", duration, defaults.duration)
        if loop != defaults.loop { members.append(("loop", .bool(loop))) }
        number("pointScale", pointScale, defaults.pointScale)
        func blobList(_ key: String, _ list: [Blob]?) {
            guard let list else { return }
            members.append((key, .array(list.map { blob in
                JSONNode(.object([
                    ("color", JSONNode(.string(blob.color.hex))),
                    ("center", JSONNode(.array([JSONNode(.number(blob.center.x)), JSONNode(.number(blob.center.y))]))),
                    ("radius", JSONNode(.array([JSONNode(.number(blob.radius.x)), JSONNode(.number(blob.radius.y))]))),
                    ("opacity", JSONNode(.number(blob.opacity))),
                ]))
            })))
        }
        blobList("blobs", blobs)
        blobList("highlightBlobs", highlightBlobs)
        return .object(members.map { ($0.0, JSONNode($0.1)) })
    }

    /// ``jsonValue`` as indented text with a final newline.
    package var jsonText: String { jsonValue.serialized() + "\n" }
}

extension Fill {
    /// A colour string, or a gradient object with every stop's location.
    package var jsonValue: JSONValue {
        switch self {
        case .color(let color):
            return .string(color.hex)
        case .gradient(let gradient):
            return .object([
                ("type", JSONNode(.string(gradient.kind.rawValue))),
                ("angle", JSONNode(.number(gradient.angle))),
                ("stops", JSONNode(.array(gradient.stops.map { stop in
                    JSONNode(.object([
                        ("location", JSONNode(.number(stop.location))),
                        ("color", JSONNode(.string(stop.color.hex))),
                    ]))
                }))),
            ])
        }
    }
}

/// Brand palettes: a JSON list of colours, or one colour per line (the first word of
/// each line; `fluidgradient palette`'s output, as printed, is one).
package enum PaletteFile {
    /// Reads a palette's colours; errors name the file and the line or index.
    package static func colors(_ bytes: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            throw PresetError(
                file: file, path: "",
                message: "this is a PNG image, not a palette (one colour per line or a JSON list); to take its colours, run: fluidgradient palette \(file)")
        }
        // A byte-order mark, as Windows editors write, is not part of the first colour.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else {
            throw PresetError(file: file, path: "", message: "not a text file; a palette is one colour per line or a JSON list of colours")
        }
        if text.trimmingSpaces().hasPrefix("[") {
            return try listedColors(body, file: file)
        }
        var colors: [RGBA] = []
        // Any line ending: "\r\n" is one Character, which a split on "\n" would not see.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // Words stay slices of the line: a line of many words is split once, in linear time.
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let first = words.first.map(String.init) else { continue }
            let color: RGBA
            do {
                color = try RGBA(parsing: first)
            } catch {
                throw PresetError(file: file, path: "", message: error.description, line: number + 1)
            }
            // The rest of the line is a note, as in `fluidgradient palette`'s output
            // (`#D45649   rgb(212, 86, 73)   31.9%`), unless it holds a colour too.
            if let second = words.dropFirst().first(where: { RGBA.parsed(String($0)) != nil }) {
                throw PresetError(
                    file: file, path: "", message: "\"\(first)\" and \"\(second)\" are both colours; put one colour on each line", line: number + 1)
            }
            colors.append(color)
        }
        guard PresetLimits.colorCount.contains(colors.count) else {
            throw PresetError(
                file: file, path: "",
                message: "expected \(PresetLimits.colorCount.lowerBound) to \(PresetLimits.colorCount.upperBound) colours, one per line or as a JSON list, found \(colors.count)")
        }
        return colors
    }

    /// A JSON list of colours, each a string or, as `fluidgradient palette --json` prints
    /// them, an object `{ "color": ..., "share": ... }`.
    private static func listedColors(_ body: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        let reader = JSONReader(file: file)
        return try reader.read(body) { root throws(PresetError) in
            try reader.colors(root, at: "", count: PresetLimits.colorCount) { element, path throws(PresetError) in
                guard case .object = element.value else { return try reader.color(element, at: path) }
                let members = try reader.object(element, at: path, allowed: ["color", "share"])
                guard let color = members["color"] else { throw reader.error(path, "a palette entry needs \"color\"") }
                return try reader.color(color, at: members.path("color"))
            }
        }
    }
}
