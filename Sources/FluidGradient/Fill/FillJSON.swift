extension JSONReader {
    /// A colour string, or a gradient object `{ "type", "angle", "stops" }`.
    ///
    /// - Parameters:
    ///   - node: the value that should be a fill.
    ///   - path: its key path.
    /// - Returns: the fill; a gradient's stops sorted, their locations clamped.
    /// - Throws: ``PresetError`` naming the part at fault.
    package func fill(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> Fill {
        if case .string = node.value { return .color(try color(node, at: path)) }
        guard case .object = node.value else { throw error(path, node, .notAFill(found: node.value.kindName)) }
        let members = try object(node, at: path, allowed: ["type", "angle", "interpolation", "stops"])
        var kind = Gradient.Kind.linear
        if let typeNode = members["type"] {
            let text = try string(typeNode, at: members.path("type"))
            guard let parsed = Gradient.Kind(rawValue: text) else {
                let allowed = Gradient.Kind.allCases.map(\.rawValue)
                throw error(members.path("type"), typeNode, .notOneOf(text, kind: "a gradient type", allowed: allowed))
            }
            kind = parsed
        }
        var angle = 0.0
        if let angleNode = members["angle"] {
            angle = try number(angleNode, at: members.path("angle"), in: PresetLimits.gradientAngle)
        }
        var interpolation = Gradient.Interpolation.srgb
        if let interpolationNode = members["interpolation"] {
            let text = try string(interpolationNode, at: members.path("interpolation"))
            guard let parsed = Gradient.Interpolation(rawValue: text) else {
                let allowed = Gradient.Interpolation.allCases.map(\.rawValue)
                throw error(
                    members.path("interpolation"), interpolationNode,
                    .notOneOf(text, kind: "an interpolation space", allowed: allowed))
            }
            interpolation = parsed
        }
        guard let stopsNode = members["stops"] else { throw error(path, node, .gradientNeedsStops) }
        let stops = try gradientStops(stopsNode, at: members.path("stops"))
        do {
            return .gradient(
                try Gradient(
                    kind: kind, angle: angle, stops: try Gradient.resolveLocations(stops), interpolation: interpolation)
            )
        } catch {
            let reason: PresetError.Reason =
                switch error {
                case .tooFewStops(let count): .tooFewStops(count)
                default: .mixedStopLocations
                }
            throw self.error(members.path("stops"), stopsNode, reason)
        }
    }

    /// A gradient's stops as written: each a colour and, perhaps, a location.
    private func gradientStops(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> [(
        location: Double?, color: RGBA
    )] {
        var stops: [(location: Double?, color: RGBA)] = []
        for (index, stopNode) in try array(node, at: path).enumerated() {
            let stop = try object(stopNode, at: path + [.index(index)], allowed: ["location", "color"])
            guard let colorNode = stop["color"] else { throw error(stop.path, stopNode, .stopNeedsColor) }
            let location = try stop["location"].map { (node) throws(PresetError) in
                try number(node, at: stop.path("location"), in: -1e6...1e6)
            }
            stops.append((location, try color(colorNode, at: stop.path("color"))))
        }
        return stops
    }
}

extension Gradient {
    /// Stop locations as written: all given, or all left out (then evenly spaced from 0 to 1).
    static func resolveLocations(
        _ stops: [(location: Double?, color: RGBA)]
    ) throws(GradientError) -> [(location: Double, color: RGBA)] {
        guard stops.count >= 2 else { throw GradientError.tooFewStops(stops.count) }
        if stops.allSatisfy({ $0.location == nil }) {
            return stops.enumerated().map { (Double($0.offset) / Double(stops.count - 1), $0.element.color) }
        }
        guard stops.allSatisfy({ $0.location != nil }) else { throw GradientError.mixedLocations }
        return stops.map { ($0.location!, $0.color) }
    }
}

extension Fill {
    /// A colour string, or a gradient object with every stop's location (and its
    /// interpolation when it is not sRGB).
    package var jsonValue: JSONValue {
        switch self {
        case .color(let color):
            return .string(color.text)
        case .gradient(let gradient):
            let interpolation: [(String, JSONNode)] =
                gradient.interpolation == .srgb
                ? [] : [("interpolation", JSONNode(.string(gradient.interpolation.rawValue)))]
            return .object(
                [
                    ("type", JSONNode(.string(gradient.kind.rawValue))),
                    ("angle", JSONNode(.number(gradient.angle))),
                ] + interpolation + [
                    (
                        "stops",
                        JSONNode(
                            .array(
                                gradient.stops.map { stop in
                                    JSONNode(
                                        .object([
                                            ("location", JSONNode(.number(stop.location))),
                                            ("color", JSONNode(.string(stop.color.text))),
                                        ]))
                                }))
                    )
                ])
        }
    }
}
