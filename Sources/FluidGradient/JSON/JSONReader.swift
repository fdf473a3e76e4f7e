/// A key path into a document, as ``PresetError`` carries it.
package typealias JSONPath = [PresetError.PathComponent]

/// Reads a parsed document into typed values, turning every mismatch into a
/// ``PresetError`` that names the file, the line of the value, its key path and why.
package struct JSONReader: Sendable {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    /// An error about `node`, at its line; the document as a whole (an empty path) is
    /// named by its file alone.
    ///
    /// - Parameters:
    ///   - path: the key path of `node`.
    ///   - node: the value at fault, or the nearest enclosing one (an object missing a key).
    ///   - reason: why it cannot be used.
    /// - Returns: the error, ready to throw.
    package func error(_ path: JSONPath, _ node: JSONNode, _ reason: PresetError.Reason) -> PresetError {
        PresetError(file: file, line: path.isEmpty ? nil : node.line, path: path, reason: reason)
    }

    /// Parses `bytes`, reporting malformed JSON at its line and column.
    ///
    /// - Parameter bytes: the document's UTF-8 text.
    /// - Returns: the root value.
    /// - Throws: ``PresetError`` with ``PresetError/Reason/malformedJSON(column:detail:)``.
    package func parse(_ bytes: [UInt8]) throws(PresetError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            let reason = PresetError.Reason.malformedJSON(column: error.column, detail: error.message)
            throw PresetError(file: file, line: error.line, reason: reason)
        }
    }

    /// The members of an object, after checking that every key is one of `allowed`.
    ///
    /// - Parameters:
    ///   - node: the value that should be an object.
    ///   - path: its key path.
    ///   - allowed: the keys it may hold, in the order an error lists them.
    /// - Returns: its members, which know their key paths.
    /// - Throws: ``PresetError`` when it is no object or holds an unknown key.
    package func object(_ node: JSONNode, at path: JSONPath, allowed: [String]) throws(PresetError) -> JSONObject {
        guard case .object(let members) = node.value else {
            throw error(path, node, .wrongType(expected: "an object", found: node.value.kindName))
        }
        for member in members where !allowed.contains(member.key) {
            let key = member.key.lowercased()
            let best = allowed.map { ($0, editDistance(key, $0.lowercased())) }.min { $0.1 < $1.1 }
            let suggestion = best.flatMap { $0.1 <= 2 ? $0.0 : nil }
            let reason = PresetError.Reason.unknownKey(member.key, suggestion: suggestion, allowed: allowed)
            throw error(path + [.key(member.key)], member.value, reason)
        }
        return JSONObject(members: members, path: path, line: node.line)
    }

    package func number(
        _ node: JSONNode, at path: JSONPath, in bounds: ClosedRange<Double>
    ) throws(PresetError) -> Double {
        guard case .number(let value) = node.value else {
            throw error(path, node, .wrongType(expected: "a number", found: node.value.kindName))
        }
        guard bounds.contains(value) else {
            throw error(path, node, .outOfRange(node.numberText ?? ParameterRange.format(value), allowed: bounds))
        }
        return value
    }

    package func integer(
        _ node: JSONNode, at path: JSONPath, in bounds: ClosedRange<Double>
    ) throws(PresetError) -> Int {
        let value = try number(node, at: path, in: bounds)
        guard value == value.rounded() else {
            throw error(path, node, .notWholeNumber(node.numberText ?? ParameterRange.format(value)))
        }
        return Int(value)
    }

    package func string(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> String {
        guard case .string(let value) = node.value else {
            throw error(path, node, .wrongType(expected: "a string", found: node.value.kindName))
        }
        return value
    }

    package func bool(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw error(path, node, .wrongType(expected: "true or false", found: node.value.kindName))
        }
        return value
    }

    /// One of a set of names, such as a ``MixingSpace``.
    ///
    /// - Parameters:
    ///   - node: the value that should be one of the names.
    ///   - path: its key path.
    ///   - kind: what the value is, for the message (`"a mixing space"`).
    /// - Returns: the value it names.
    /// - Throws: ``PresetError`` listing the names for a string that is none of them.
    package func choice<T: RawRepresentable & CaseIterable>(
        _ node: JSONNode, at path: JSONPath, kind: String
    ) throws(PresetError) -> T where T.RawValue == String {
        let text = try string(node, at: path)
        guard let value = T(rawValue: text) else {
            throw error(path, node, .notOneOf(text, kind: kind, allowed: T.allCases.map(\.rawValue)))
        }
        return value
    }

    package func array(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> [JSONNode] {
        guard case .array(let elements) = node.value else {
            throw error(path, node, .wrongType(expected: "an array", found: node.value.kindName))
        }
        return elements
    }

    package func color(_ node: JSONNode, at path: JSONPath) throws(PresetError) -> RGBA {
        let text = try string(node, at: path)
        do {
            return try RGBA(parsing: text)
        } catch {
            throw self.error(path, node, error.reason)
        }
    }

    /// A list of colours.
    ///
    /// - Parameters:
    ///   - node: the value that should be the list.
    ///   - path: its key path.
    ///   - count: how many colours it may hold.
    ///   - entry: reads each element at its path, where a list may hold more than
    ///     colour strings; nil reads colour strings.
    /// - Returns: the colours in order.
    /// - Throws: ``PresetError`` for a list of another length or an element that is no colour.
    package func colors(
        _ node: JSONNode, at path: JSONPath, count: ClosedRange<Int>,
        entry: ((JSONNode, JSONPath) throws(PresetError) -> RGBA)? = nil
    ) throws(PresetError) -> [RGBA] {
        let elements = try array(node, at: path)
        guard count.contains(elements.count) else {
            throw error(path, node, .wrongCount(found: elements.count, allowed: count, blobs: false))
        }
        var colors: [RGBA] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path + [.index(index)]
            if let entry {
                colors.append(try entry(element, elementPath))
            } else {
                colors.append(try color(element, at: elementPath))
            }
        }
        return colors
    }

    /// `{ "min": a, "max": b }` with an optional `"step"`, inside `bounds`, with a ≤ b.
    package func range(
        _ node: JSONNode, at path: JSONPath, in bounds: ClosedRange<Double>
    ) throws(PresetError) -> ParameterRange {
        let members = try object(node, at: path, allowed: ["min", "max", "step"])
        guard let minNode = members["min"], let maxNode = members["max"] else {
            throw error(path, node, .rangeNeedsMinAndMax)
        }
        // Bounds checked here too, so that a message quotes a number as written.
        let low = try number(minNode, at: members.path("min"), in: bounds)
        let high = try number(maxNode, at: members.path("max"), in: bounds)
        let step = try members["step"].map { (node) throws(PresetError) in
            try number(node, at: members.path("step"), in: -.infinity...(.infinity))
        }
        let range = ParameterRange(low, high, step: step)
        if let problem = PresetLimits.rangeProblem(range, within: bounds) {
            let part = problem.part.flatMap { members[$0] } ?? node
            throw error(problem.part.map(members.path) ?? path, part, problem.reason)
        }
        return range
    }

    /// A two-number array `[x, y]`, each inside `bounds`.
    package func pair(
        _ node: JSONNode, at path: JSONPath, in bounds: ClosedRange<Double>
    ) throws(PresetError) -> SIMD2<Double> {
        let elements = try array(node, at: path)
        guard elements.count == 2 else { throw error(path, node, .notAPair(count: elements.count)) }
        return SIMD2(
            try number(elements[0], at: path + [.index(0)], in: bounds),
            try number(elements[1], at: path + [.index(1)], in: bounds))
    }
}

/// An object's members in file order, looked up by key.
package struct JSONObject: Sendable {
    package let members: [(key: String, value: JSONNode)]
    /// The object's key path.
    package let path: JSONPath
    /// The line the object starts on.
    package let line: Int

    package init(members: [(key: String, value: JSONNode)], path: JSONPath, line: Int) {
        self.members = members
        self.path = path
        self.line = line
    }

    package subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }

    /// The key path of a member.
    package func path(_ key: String) -> JSONPath { path + [.key(key)] }

    /// The object itself, as a node errors can point at.
    package var node: JSONNode { JSONNode(.object(members), line: line) }
}
