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
