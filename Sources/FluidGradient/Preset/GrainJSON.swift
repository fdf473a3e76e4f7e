extension JSONReader {
    /// A `grain` object: `amount` (0...1), and optionally `size` (0.5...8 points), `animated`
    /// and `mono` (DESIGN section 12).
    ///
    /// - Parameters:
    ///   - node: the value that should be the object.
    ///   - path: its key path.
    /// - Returns: the grain, every value inside its bounds.
    /// - Throws: ``PresetError`` naming the member at fault.
    package func grain(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> Grain {
        let members = try object(node, at: path, allowed: ["amount", "size", "animated", "mono"])
        guard let amount = members["amount"] else { throw error(path, node, .grainNeedsAmount) }
        var grain = Grain(amount: try number(amount, at: members.path("amount"), in: PresetLimits.grainAmount))
        if let size = members["size"] {
            grain.size = try number(size, at: members.path("size"), in: PresetLimits.grainSize)
        }
        if let animated = members["animated"] { grain.animated = try bool(animated, at: members.path("animated")) }
        if let mono = members["mono"] { grain.mono = try bool(mono, at: members.path("mono")) }
        return grain
    }
}

extension Grain {
    /// The `grain` object with every member, as a preset file writes it.
    package var jsonValue: JSONValue {
        .object([
            ("amount", JSONNode(.number(amount))), ("size", JSONNode(.number(size))),
            ("animated", JSONNode(.bool(animated))), ("mono", JSONNode(.bool(mono))),
        ])
    }

    /// How `presets show` says it: `none`, or `0.08, 1-point cells, still, mono`.
    package var summary: String {
        guard isOn else { return "none" }
        return "\(ParameterRange.format(amount)), \(ParameterRange.format(size))-point cells, "
            + (animated ? "animated (8 phases)" : "still") + ", " + (mono ? "mono" : "per channel")
    }
}
