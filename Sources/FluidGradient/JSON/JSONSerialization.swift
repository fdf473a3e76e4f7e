import Foundation

extension JSONValue {
    /// Compact or indented JSON text, members in their stored order.
    package func serialized(indent: String? = "  ", level: Int = 0) -> String {
        let newline = indent == nil ? "" : "\n"
        let pad = String(repeating: indent ?? "", count: level + 1)
        let closePad = String(repeating: indent ?? "", count: level)
        let separator = indent == nil ? ":" : ": "
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.format(value)
        case .string(let value): return JSONValue.quote(value)
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            if elements.allSatisfy({ !$0.value.isContainer }) {
                return "[" + elements.map { $0.value.serialized(indent: nil) }.joined(separator: ", ") + "]"
            }
            return "[" + newline
                + elements.map { pad + $0.value.serialized(indent: indent, level: level + 1) }
                .joined(separator: "," + newline) + newline + closePad + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            if indent == nil || (members.count <= 4 && members.allSatisfy({ !$0.value.value.isContainer })) {
                return "{ "
                    + members.map { JSONValue.quote($0.key) + ": " + $0.value.value.serialized(indent: nil) }
                    .joined(separator: ", ") + " }"
            }
            return "{" + newline
                + members.map {
                    pad + JSONValue.quote($0.key) + separator
                        + $0.value.value.serialized(indent: indent, level: level + 1)
                }.joined(separator: "," + newline) + newline + closePad + "}"
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// Whole numbers up to 2^53, every one a double holds exactly (seeds reach 2^53 − 1),
    /// as integers; others as Swift's shortest round-tripping form.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) <= 0x1p53 { return String(Int(value)) }
        return String(value)
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
