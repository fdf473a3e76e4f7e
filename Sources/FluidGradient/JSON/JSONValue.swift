/// A parsed JSON document that keeps what validation needs and Foundation drops:
/// object members in file order, integers apart from other numbers, true/false apart
/// from numbers, and the line of every value for error messages.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([(key: String, value: JSONNode)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a.map(\.value) == b.map(\.value)
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.value == $1.value.value }
        default: return false
        }
    }

    /// What kind of value this is, as an error message names it.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A value and the line it starts on in the source.
package struct JSONNode: Sendable, Equatable {
    package var value: JSONValue
    package var line: Int
    /// A number as the source wrote it, for messages: a double rounds integers past 2^53.
    package var numberText: String?

    package init(_ value: JSONValue, line: Int = 0, numberText: String? = nil) {
        self.value = value
        self.line = line
        self.numberText = numberText
    }

    package static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        lhs.value == rhs.value && lhs.line == rhs.line
    }

    /// The value at a key path such as `blobs[2].center`, or the deepest one on the
    /// way to it that exists (a missing key's object); nil for an empty path. Key paths
    /// do not escape keys, so a key holding `.` or `[` (only an unknown one can) resolves
    /// to its object.
    package func node(at path: String) -> JSONNode? {
        guard !path.isEmpty else { return nil }
        var node = self
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    case .array(let elements) = node.value, elements.indices.contains(index)
                else { break }
                node = elements[index]
                rest = rest[rest.index(after: close)...]
            } else {
                if rest.first == "." { rest.removeFirst() }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                guard case .object(let members) = node.value, let member = members.first(where: { $0.key == rest[..<end] })
                else { break }
                node = member.value
                rest = rest[end...]
            }
        }
        return node
    }
}
