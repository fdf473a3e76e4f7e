import Foundation

/// The arguments inside a CSS colour function's parentheses: three values and an
/// optional alpha, separated by spaces with `/ alpha` (modern) or by commas (legacy,
/// `rgb()` and `hsl()` only); `color()` names its space first.
struct CSSArguments {
    /// `color()`'s colour space, as written.
    var space: String?
    var values: [CSSValue] = []
    var alpha: CSSValue?
    /// Whether the values were separated by commas.
    var legacy = false

    /// - Parameters:
    ///   - body: the text between the parentheses.
    ///   - function: the function's name, lowercased.
    /// - Throws: a problem quoting the value at fault.
    init(_ body: Substring, function: String) throws(CSSColorProblem) {
        if body.contains(",") {
            guard ["rgb", "rgba", "hsl", "hsla"].contains(function) else {
                throw CSSColorProblem("\(function)() takes values separated by spaces, not commas")
            }
            legacy = true
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard (3...4).contains(parts.count),
                parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) })
            else {
                throw CSSColorProblem("with commas, \(function)() takes 3 values and an optional alpha")
            }
            values = try parts.prefix(3).map { (part) throws(CSSColorProblem) in try CSSValue(part) }
            alpha = try parts.dropFirst(3).first.map { (part) throws(CSSColorProblem) in try CSSValue(part) }
            return
        }
        let halves = body.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { throw CSSColorProblem("only one \"/\" may come before the alpha") }
        var words = halves[0].split(whereSeparator: \.isWhitespace).map(String.init)
        if function == "color", let first = words.first, first.first?.isLetter == true {
            space = first
            words.removeFirst()
        }
        values = try words.map { (word) throws(CSSColorProblem) in try CSSValue(word) }
        if halves.count == 2 {
            let alphaWords = halves[1].split(whereSeparator: \.isWhitespace)
            guard alphaWords.count == 1 else {
                throw CSSColorProblem("expected one alpha after \"/\", found \(alphaWords.count)")
            }
            alpha = try CSSValue(String(alphaWords[0]))
        }
    }

    /// The three values, or a problem naming how many there were.
    func three(_ function: String) throws(CSSColorProblem) -> [CSSValue] {
        guard values.count == 3 else {
            throw CSSColorProblem(
                "\(function)() takes 3 values and an optional \"/ alpha\", found \(values.count)")
        }
        return values
    }
}

/// One value of a colour function: a number, with `%` or an angle's unit, or `none`.
struct CSSValue {
    enum Unit: String {
        case number = ""
        case percent = "%"
        case deg, rad, grad, turn
    }

    /// The value as written, for messages.
    let text: String
    /// nil for `none`.
    let number: Double?
    let unit: Unit

    var isPercent: Bool { unit == .percent }

    init(_ text: String) throws(CSSColorProblem) {
        self.text = text
        if text.lowercased() == "none" {
            number = nil
            unit = .number
            return
        }
        let end = CSSValue.numberEnd(text)
        guard end > 0, let value = Double(text.prefix(end)), value.isFinite,
            let unit = Unit(rawValue: text.dropFirst(end).lowercased())
        else {
            throw CSSColorProblem("\"\(text)\" is not a number, a percentage or an angle")
        }
        number = value
        self.unit = unit
    }

    /// The value as a plain number, where `100%` is `percent`; `none` is 0.
    ///
    /// - Parameters:
    ///   - percent: what 100% stands for.
    ///   - what: what the value should be, for the message.
    /// - Throws: a problem for an angle.
    func value(percent: Double, what: String) throws(CSSColorProblem) -> Double {
        guard let number else { return 0 }
        switch unit {
        case .number: return number
        case .percent: return number / 100 * percent
        default: throw CSSColorProblem("\"\(text)\" is not \(what)")
        }
    }

    /// The value as a hue in degrees: a number or an angle; `none` is 0.
    func hue() throws(CSSColorProblem) -> Double {
        guard let number else { return 0 }
        switch unit {
        case .number, .deg: return number
        case .rad: return number * 180 / .pi
        case .grad: return number * 0.9
        case .turn: return number * 360
        case .percent:
            throw CSSColorProblem("\"\(text)\" is not a hue (a number of degrees or an angle such as 0.5turn)")
        }
    }

    /// The length of the CSS number at the start of `text`: sign, digits, fraction and
    /// exponent; 0 when there is none.
    private static func numberEnd(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == 43 || bytes[i] == 45 { i += 1 }
        var mantissa = digits()
        if i < bytes.count, bytes[i] == 46 {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return 0 }
        let beforeExponent = i
        if i < bytes.count, bytes[i] == 101 || bytes[i] == 69 {
            i += 1
            if i < bytes.count, bytes[i] == 43 || bytes[i] == 45 { i += 1 }
            if digits() == 0 { i = beforeExponent }
        }
        return i
    }
}
