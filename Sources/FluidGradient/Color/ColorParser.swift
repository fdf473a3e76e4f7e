/// Why a colour string was rejected. `description` is one sentence for people.
package struct ColorParseError: Error, Equatable, CustomStringConvertible {
    package let text: String
    package let suggestion: String?
    /// For a CSS Color 4 function, what is wrong with it, quoting the part at fault.
    package let problem: String?

    package init(text: String, suggestion: String?, problem: String? = nil) {
        self.text = text
        self.suggestion = suggestion
        self.problem = problem
    }

    /// The forms a colour may take, for messages and help.
    package static let forms =
        "#RGB, #RRGGBB, #RRGGBBAA, a CSS colour name, or CSS Color 4's rgb(), hsl(), oklab(), oklch() or color()"

    package var description: String {
        if let problem { return "\"\(text)\" is not a colour: \(problem)" }
        var message = "\"\(text)\" is not a colour: expected \(ColorParseError.forms)"
        if let suggestion { message += " (did you mean \"\(suggestion)\"?)" }
        return message
    }

    /// The error as a preset's reason.
    package var reason: PresetError.Reason {
        if let problem { return .malformedColor(text, problem: problem) }
        return .notAColor(text, suggestion: suggestion)
    }
}

extension RGBA {
    /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA`, a CSS colour name or `transparent`, or one
    /// of CSS Color 4's functions (``CSSColorFunction``); names and function names are
    /// case-insensitive, and surrounding spaces are ignored.
    package init(parsing text: String) throws(ColorParseError) {
        let trimmed = text.trimmingSpaces()
        if trimmed.contains("(") {
            do {
                self = try CSSColorFunction.parse(trimmed)
            } catch {
                throw ColorParseError(text: text, suggestion: nil, problem: error.detail)
            }
            return
        }
        guard let color = RGBA.parsed(text) else {
            let suggestion = trimmed.hasPrefix("#") ? nil : RGBA.closestName(to: trimmed.asciiLowercased())
            throw ColorParseError(text: text, suggestion: suggestion)
        }
        self = color
    }

    /// The colour `text` names, as ``init(parsing:)`` reads it, or nil without looking for
    /// a hint: for words that are only asked whether they are a colour.
    ///
    /// - Parameter text: a word that may be a colour.
    /// - Returns: its colour, or nil when it is none.
    package static func parsed(_ text: String) -> RGBA? {
        let trimmed = text.trimmingSpaces()
        if trimmed.hasPrefix("#") { return RGBA.hex(trimmed.dropFirst()) }
        if trimmed.contains("(") { return try? CSSColorFunction.parse(trimmed) }
        // No name is longer than the longest: a long word is not lowercased or looked up.
        guard trimmed.count <= longestName else { return nil }
        // Only A-Z fold: Unicode lowering would read the Kelvin sign (U+212A) as a k.
        let name = trimmed.asciiLowercased()
        if name == "transparent" { return .clear }
        guard let rgb = rgbByName[name] else { return nil }
        return RGBA(bytes: UInt8(rgb >> 16), UInt8((rgb >> 8) & 0xFF), UInt8(rgb & 0xFF))
    }

    /// The length of the longest CSS colour name.
    private static let longestName = cssColorNames.map(\.name.count).max() ?? 0

    /// The CSS names, looked up by name (only looked up, never iterated).
    private static let rgbByName = Dictionary(uniqueKeysWithValues: cssColorNames.map { ($0.name, $0.rgb) })

    /// Every CSS colour name, sorted.
    package static var cssNames: [String] { cssColorNames.map(\.name) }

    private static func hex(_ digits: Substring) -> RGBA? {
        var nibbles: [UInt8] = []
        for character in digits {
            // Only ASCII digits: `hexDigitValue` also reads fullwidth ones (`＃ＦＦＦ`).
            guard character.isASCII, let value = character.hexDigitValue else { return nil }
            nibbles.append(UInt8(value))
        }
        switch nibbles.count {
        case 3:
            return RGBA(bytes: nibbles[0] * 17, nibbles[1] * 17, nibbles[2] * 17)
        case 6, 8:
            var bytes: [UInt8] = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            if bytes.count == 3 { bytes.append(255) }
            return RGBA(bytes: bytes[0], bytes[1], bytes[2], bytes[3])
        default:
            return nil
        }
    }

    /// The CSS name within two edits of `name`, if there is exactly one best.
    private static func closestName(to name: String) -> String? {
        // A name longer than any by more than two edits is none of them: not compared.
        guard (3...longestName + 2).contains(name.count), name.allSatisfy(\.isLetter) else { return nil }
        let scored = cssColorNames.map { ($0.name, editDistance(name, $0.name)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }
}

/// Levenshtein distance, used only for "did you mean" hints, counted up to `limit`.
///
/// - Parameters:
///   - a: one word, which may come from outside and be of any length.
///   - b: the other.
///   - limit: the largest distance a hint uses.
/// - Returns: the distance, or `limit + 1` for anything further. Words whose lengths alone
///   differ by more than `limit` are not compared, so a long word costs time linear in
///   its length, not in its length times the other's.
package func editDistance(_ a: String, _ b: String, limit: Int = 2) -> Int {
    let a = Array(a), b = Array(b)
    guard abs(a.count - b.count) <= limit else { return limit + 1 }
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return min(previous[b.count], limit + 1)
}

extension String {
    /// The text without the whitespace around it.
    package func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// The text with A-Z lowered and every other character kept: the case-insensitive
    /// matching of CSS keywords, under which no non-ASCII character equals an ASCII letter
    /// (Unicode lowering turns the Kelvin sign into `k`).
    package func asciiLowercased() -> String {
        String(
            String.UnicodeScalarView(
                unicodeScalars.lazy.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8($0.value + 32)) : $0 }))
    }
}
