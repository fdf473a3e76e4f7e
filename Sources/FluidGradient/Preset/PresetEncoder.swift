extension Preset {
    /// The preset as a JSON document in the file contract of DESIGN section 8. Name,
    /// description, colours and background are always written; other keys only when
    /// they differ from their defaults. Reading it back gives an equal preset.
    package var jsonValue: JSONValue {
        .object(PresetSchema.fields.compactMap { field in field.value(in: self).map { (field.key, JSONNode($0)) } })
    }

    /// The preset as a normalized JSON document: what `fluidgradient presets show NAME
    /// --json` prints, indented, with a final newline.
    ///
    /// Name, description, colours and background are always written; every other key
    /// only when it differs from its default, always in the same order, so equal presets
    /// have the same text. ``init(json:file:)`` reads it back into an equal preset.
    public var jsonText: String { jsonValue.serialized() + "\n" }
}

extension PresetField {
    /// The key's value in `preset` as a file writes it, or nil when a file leaves it out:
    /// at its default, or colours that explicit blobs replace.
    ///
    /// - Parameter preset: the preset to write.
    /// - Returns: the value, or nil to leave the key out.
    func value(in preset: Preset) -> JSONValue? {
        let defaults = Preset.defaults
        func list(_ colors: [RGBA]) -> JSONValue { .array(colors.map { JSONNode(.string($0.text)) }) }
        switch kind {
        case .text(let keyPath): return .string(preset[keyPath: keyPath])
        case .number(let keyPath, _):
            return preset[keyPath: keyPath] == defaults[keyPath: keyPath] ? nil : .number(preset[keyPath: keyPath])
        case .range(let keyPath, _):
            return preset[keyPath: keyPath] == defaults[keyPath: keyPath] ? nil : preset[keyPath: keyPath].jsonValue
        case .boolean(let keyPath):
            return preset[keyPath: keyPath] == defaults[keyPath: keyPath] ? nil : .bool(preset[keyPath: keyPath])
        case .seed: return preset.seed == defaults.seed ? nil : .number(Double(preset.seed))
        case .colors: return !preset.colors.isEmpty || preset.blobs == nil ? list(preset.colors) : nil
        case .highlights: return preset.highlights.isEmpty ? nil : list(preset.highlights)
        case .background: return preset.background.jsonValue
        case .edges: return preset.edges == defaults.edges ? nil : .string(preset.edges.rawValue)
        case .colorSpace: return preset.colorSpace == defaults.colorSpace ? nil : .string(preset.colorSpace.rawValue)
        case .mixing: return preset.mixing == defaults.mixing ? nil : .string(preset.mixing.rawValue)
        case .size:
            let same = (preset.width, preset.height) == (defaults.width, defaults.height)
            return same ? nil : .string("\(preset.width)x\(preset.height)")
        case .blobs: return preset.blobs.map(Blob.jsonList)
        case .highlightBlobs: return preset.highlightBlobs.map(Blob.jsonList)
        case .grain: return preset.grain == defaults.grain ? nil : preset.grain.jsonValue
        }
    }
}

extension ParameterRange {
    /// `{ "min": a, "max": b }`, with `"step"` when there is one.
    var jsonValue: JSONValue {
        var fields: [(String, JSONValue)] = [("min", .number(min)), ("max", .number(max))]
        if let step { fields.append(("step", .number(step))) }
        return .object(fields.map { ($0.0, JSONNode($0.1)) })
    }
}

extension Blob {
    /// Explicit blobs as a file lists them, each with every key.
    static func jsonList(_ blobs: [Blob]) -> JSONValue {
        .array(
            blobs.map { blob in
                JSONNode(
                    .object([
                        ("color", JSONNode(.string(blob.color.text))),
                        (
                            "center",
                            JSONNode(.array([JSONNode(.number(blob.center.x)), JSONNode(.number(blob.center.y))]))
                        ),
                        (
                            "radius",
                            JSONNode(.array([JSONNode(.number(blob.radius.x)), JSONNode(.number(blob.radius.y))]))
                        ),
                        ("opacity", JSONNode(.number(blob.opacity))),
                    ]))
            })
    }
}
