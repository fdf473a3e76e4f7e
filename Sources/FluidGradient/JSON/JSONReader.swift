/// Reads a parsed document into typed values, turning every mismatch into a
/// ``PresetError`` that names the file, the key path and what was expected.
package struct JSONReader: Sendable {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    package func error(_ path: String, _ message: String) -> PresetError {
        PresetError(file: file, path: path, message: message)
    }

    /// Parses `text`, reporting malformed JSON at its line, in the `file:line:` form of
    /// every other error, and its column.
    package func parse(_ bytes: [UInt8]) throws(PresetError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            let message = "malformed JSON at column \(error.column): \(error.message)"
            throw PresetError(file: file, path: "", message: message, line: error.line)
        }
    }

    /// Parses `bytes` and reads the document with `body`; an error from `body` gains
    /// the line of the value its key path names, or of the nearest enclosing value.
    package func read<Value>(_ bytes: [UInt8], _ body: (JSONNode) throws(PresetError) -> Value) throws(PresetError) -> Value {
        let root = try parse(bytes)
        do {
            return try body(root)
        } catch {
            var located = error
            if located.line == nil, located.file == file { located.line = root.node(at: located.path)?.line }
            throw located
        }
    }

    /// The members of an object, after checking that every key is one of `allowed`.
    package func object(_ node: JSONNode, at path: String, allowed: [String]) throws(PresetError) -> JSONObject {
        guard case .object(let members) = node.value else {
            throw error(path, "expected an object, found \(node.value.kindName)")
        }
        for member in members where !allowed.contains(member.key) {
            let keyPath = JSONReader.join(path, member.key)
            var message = "\"\(member.key)\" is not a known key"
            let key = member.key.lowercased()
            let scored = allowed.map { ($0, editDistance(key, $0.lowercased())) }
            if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 {
                message += " (did you mean \"\(best.0)\"?)"
            }
            message += "; expected one of: " + allowed.joined(separator: ", ")
            throw error(keyPath, message)
        }
        return JSONObject(members: members, path: path)
    }

    package func number(_ node: JSONNode, at path: String, in bounds: ClosedRange<Double>) throws(PresetError) -> Double {
        guard case .number(let value) = node.value else {
            throw error(path, "expected a number, found \(node.value.kindName)")
        }
        guard bounds.contains(value) else {
            throw error(path, JSONReader.outside(node.numberText ?? ParameterRange.format(value), bounds))
        }
        return value
    }

    package func integer(_ node: JSONNode, at path: String, in bounds: ClosedRange<Double>) throws(PresetError) -> Int {
        let value = try number(node, at: path, in: bounds)
        guard value == value.rounded() else {
            throw error(path, "expected a whole number, found \(node.numberText ?? ParameterRange.format(value))")
        }
        return Int(value)
    }

    package func string(_ node: JSONNode, at path: String) throws(PresetError) -> String {
        guard case .string(let value) = node.value else {
            throw error(path, "expected a string, found \(node.value.kindName)")
        }
        return value
    }

    package func bool(_ node: JSONNode, at path: String) throws(PresetError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw error(path, "expected true or false, found \(node.value.kindName)")
        }
        return value
    }

    package func array(_ node: JSONNode, at path: String) throws(PresetError) -> [JSONNode] {
        guard case .array(let elements) = node.value else {
            throw error(path, "expected an array, found \(node.value.kindName)")
        }
        return elements
    }

    package func color(_ node: JSONNode, at path: String) throws(PresetError) -> RGBA {
        let text = try string(node, at: path)
        do {
            return try RGBA(parsing: text)
        } catch {
            throw self.error(path, error.description)
        }
    }

    /// A list of `count` colours; `entry` reads each element at its path, where a list
    /// may hold more than colour strings.
    package func colors(
        _ node: JSONNode, at path: String, count: ClosedRange<Int>,
        entry: ((JSONNode, String) throws(PresetError) -> RGBA)? = nil
    ) throws(PresetError) -> [RGBA] {
        let elements = try array(node, at: path)
        guard count.contains(elements.count) else {
            throw error(path, "expected \(count.lowerBound) to \(count.upperBound) colours, found \(elements.count)")
        }
        var colors: [RGBA] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.isEmpty ? "[\(index)]" : "\(path)[\(index)]"
            if let entry {
                colors.append(try entry(element, elementPath))
            } else {
                colors.append(try color(element, at: elementPath))
            }
        }
        return colors
    }

    /// `{ "min": a, "max": b }` with an optional `"step"`, inside `bounds`, with a ≤ b.
    package func range(_ node: JSONNode, at path: String, in bounds: ClosedRange<Double>) throws(PresetError) -> ParameterRange {
        let members = try object(node, at: path, allowed: ["min", "max", "step"])
        guard let minNode = members["min"] else { throw error(path, "a range needs \"min\" and \"max\"") }
        guard let maxNode = members["max"] else { throw error(path, "a range needs \"min\" and \"max\"") }
        // Bounds checked here too, so that a message quotes a number as written.
        let low = try number(minNode, at: JSONReader.join(path, "min"), in: bounds)
        let high = try number(maxNode, at: JSONReader.join(path, "max"), in: bounds)
        let step = try members["step"].map { (node) throws(PresetError) in
            try number(node, at: JSONReader.join(path, "step"), in: -.infinity...(.infinity))
        }
        let range = ParameterRange(low, high, step: step)
        if let problem = PresetLimits.rangeProblem(range, within: bounds) {
            throw error(JSONReader.join(path, problem.part), problem.message)
        }
        return range
    }

    /// A two-number array `[x, y]`, each inside `bounds`.
    package func pair(_ node: JSONNode, at path: String, in bounds: ClosedRange<Double>) throws(PresetError) -> SIMD2<Double> {
        let elements = try array(node, at: path)
        guard elements.count == 2 else { throw error(path, "expected two numbers [x, y], found \(elements.count == 1 ? "1 value" : "\(elements.count) values")") }
        return SIMD2(
            try number(elements[0], at: "\(path)[0]", in: bounds),
            try number(elements[1], at: "\(path)[1]", in: bounds))
    }

    /// A colour string, or a gradient object `{ "type", "angle", "stops" }`.
    package func fill(_ node: JSONNode, at path: String) throws(PresetError) -> Fill {
        if case .string = node.value { return .color(try color(node, at: path)) }
        guard case .object = node.value else {
            throw error(path, "expected a colour string or a gradient object, found \(node.value.kindName)")
        }
        let members = try object(node, at: path, allowed: ["type", "angle", "stops"])
        var kind = Gradient.Kind.linear
        if let typeNode = members["type"] {
            let text = try string(typeNode, at: JSONReader.join(path, "type"))
            guard let parsed = Gradient.Kind(rawValue: text) else {
                throw error(JSONReader.join(path, "type"), "\"\(text)\" is not a gradient type; expected linear, radial or conic")
            }
            kind = parsed
        }
        var angle = 0.0
        if let angleNode = members["angle"] {
            angle = try number(angleNode, at: JSONReader.join(path, "angle"), in: PresetLimits.gradientAngle)
        }
        let stopsPath = JSONReader.join(path, "stops")
        guard let stopsNode = members["stops"] else { throw error(path, "a gradient needs \"stops\"") }
        let stopNodes = try array(stopsNode, at: stopsPath)
        var stops: [(location: Double?, color: RGBA)] = []
        for (index, stopNode) in stopNodes.enumerated() {
            let stopPath = "\(stopsPath)[\(index)]"
            let stop = try object(stopNode, at: stopPath, allowed: ["location", "color"])
            guard let colorNode = stop["color"] else { throw error(stopPath, "a stop needs a \"color\"") }
            let location = try stop["location"].map { (node) throws(PresetError) in
                try number(node, at: JSONReader.join(stopPath, "location"), in: -1e6...1e6)
            }
            stops.append((location, try color(colorNode, at: JSONReader.join(stopPath, "color"))))
        }
        do {
            return .gradient(try Gradient(kind: kind, angle: angle, stops: try Gradient.resolveLocations(stops)))
        } catch {
            throw self.error(stopsPath, error.description)
        }
    }

    /// `path.key`; `key` alone at the top, and `path` alone for an empty key.
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : key.isEmpty ? path : "\(path).\(key)"
    }

    /// "`value` is outside the allowed range a...b", for a value as written.
    static func outside(_ value: String, _ bounds: ClosedRange<Double>) -> String {
        "\(value) is outside the allowed \(describe(bounds))"
    }

    static func describe(_ bounds: ClosedRange<Double>) -> String {
        "range \(ParameterRange.format(bounds.lowerBound))...\(ParameterRange.format(bounds.upperBound))"
    }
}

/// An object's members in file order, looked up by key.
package struct JSONObject: Sendable {
    package let members: [(key: String, value: JSONNode)]
    package let path: String

    package subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }

    /// The key path of a member.
    package func path(_ key: String) -> String { JSONReader.join(path, key) }
}

extension Gradient {
    /// Stop locations as written: all given, or all left out (then evenly spaced from 0 to 1).
    static func resolveLocations(_ stops: [(location: Double?, color: RGBA)]) throws(GradientError) -> [(location: Double, color: RGBA)] {
        guard stops.count >= 2 else { throw GradientError.tooFewStops(stops.count) }
        if stops.allSatisfy({ $0.location == nil }) {
            return stops.enumerated().map { (Double($0.offset) / Double(stops.count - 1), $0.element.color) }
        }
        guard stops.allSatisfy({ $0.location != nil }) else { throw GradientError.mixedLocations }
        return stops.map { ($0.location!, $0.color) }
    }
}
