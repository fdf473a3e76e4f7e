/// Malformed JSON: what was expected, and where.
package struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package var line: Int
    package var column: Int

    package init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String { "malformed JSON at line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the end of the document") }
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// In characters (UTF-8 sequences), as an editor counts them, for the byte at `offset`
    /// of the line that starts at `start`.
    private func characterColumn(at offset: Int, lineStart start: Int) -> Int {
        bytes[start..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(
            message: message, line: line, column: characterColumn(at: min(index, bytes.count), lineStart: lineStart))
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private func describeNext() -> String {
        guard index < bytes.count else { return "the end of the file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let startLine = line
        guard index < bytes.count else { throw error("expected a value but found the end of the file") }
        let value: JSONValue
        var numberText: String?
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject()
        case UInt8(ascii: "["): value = try parseArray()
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            value = .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            value = .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            (value, numberText) = (.number(number.value), number.text)
        default: throw error("expected a value but found \(describeNext())")
        }
        return JSONNode(value, line: startLine, numberText: numberText)
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected a value but found \(describeNext())")
        }
        index += expected.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 256 { throw error("nesting deeper than 256 levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        // Only asked whether a key was seen, never iterated: its order cannot matter.
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key but found \(describeNext())")
            }
            let keyLine = line, keyStart = index, keyLineStart = lineStart
            let key = try parseString()
            guard seen.insert(key).inserted else {
                throw JSONSyntaxError(
                    message: "duplicate key \"\(key)\"", line: keyLine,
                    column: characterColumn(at: keyStart, lineStart: keyLineStart))
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\" but found \(describeNext())")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}' but found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}' but found \(describeNext())")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']' but found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw error("expected ',' or ']' but found \(describeNext())")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = [UInt8]()
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
            guard !run.isEmpty else { return true }
            guard let text = String(validating: run, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            return true
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard flush(&run, into: &scalars) else { throw error("a string is not valid UTF-8") }
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard flush(&run, into: &scalars) else { throw error("a string is not valid UTF-8") }
                index += 1
                scalars.append(try parseEscape())
            case 0x00..<0x20:
                throw error(
                    byte == 0x0A
                        ? "unterminated string (a line break inside quotes)" : "a control character inside a string")
            default:
                run.append(byte)
                index += 1
            }
        }
    }

    /// Reads the escape after a backslash, which `index` has passed.
    ///
    /// - Returns: the scalar the escape stands for.
    /// - Throws: ``JSONSyntaxError`` for a string ending there, an unknown escape or an invalid `\u` escape.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try parseUnicodeEscape()
        default:
            index -= 1
            throw error("an invalid escape '\\\(Character(UnicodeScalar(escape)))'")
        }
    }

    /// Reads the four hex digits of a `\u` escape, which `index` is at, and for a high
    /// surrogate the `\uXXXX` of the low one that must follow.
    ///
    /// - Returns: the scalar the escape stands for.
    /// - Throws: ``JSONSyntaxError`` for a lone surrogate or an invalid or incomplete escape.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("a lone UTF-16 surrogate in \\u escape") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("an incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(UnicodeScalar(bytes[index])).hexDigitValue else {
                throw error("an invalid \\u escape")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number's value and its text as written.
    private mutating func parseNumber() throws(JSONSyntaxError) -> (value: Double, text: String) {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("a number cannot start with 0")
            }
        } else if digits(&self) == 0 {
            throw error("a number needs digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        guard let text = String(validating: bytes[start..<index], as: UTF8.self), let value = Double(text),
            value.isFinite
        else { throw error("a number is out of range") }
        return (value, text)
    }
}
