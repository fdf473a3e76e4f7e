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
}
