import Foundation

/// A printf-style frame-number pattern with exactly one `%d` or `%0Nd`; `%%` is a percent sign.
package struct FramePattern: Equatable, Sendable {
    package let text: String
    private let prefix: String
    private let suffix: String
    private let width: Int

    package init(_ text: String) throws(OutputError) {
        self.text = text
        var prefix = "", suffix = "", width = 0, found = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                if found { suffix.append(character) } else { prefix.append(character) }
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                if found { suffix.append("%") } else { prefix.append("%") }
                continue
            }
            var digits = ""
            while let next = characters.first, next.isNumber {
                digits.append(next)
                characters.removeFirst()
            }
            guard characters.popFirst() == "d", !found, digits.isEmpty || digits.hasPrefix("0") || digits.count <= 2
            else {
                throw OutputError.severalFrameNumbers(pattern: text)
            }
            found = true
            width = Int(digits) ?? 0
        }
        guard found else {
            throw OutputError.noFrameNumber(pattern: text)
        }
        guard width <= 12 else { throw OutputError.frameNumberTooWide(pattern: text) }
        self.prefix = prefix
        self.suffix = suffix
        self.width = width
    }

    package func path(frame: Int) -> String {
        var number = String(frame)
        if number.count < width { number = String(repeating: "0", count: width - number.count) + number }
        return prefix + number + suffix
    }

    /// The frame number of a path this pattern produces, or nil.
    package func frameNumber(ofPath candidate: String) -> Int? {
        guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix), candidate.count > prefix.count + suffix.count
        else {
            return nil
        }
        let digits = candidate.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let number = Int(digits),
            path(frame: number) == candidate
        else { return nil }
        return number
    }

    /// The directory the frames go to, as written in the pattern (`.` when none).
    package var directory: String {
        let first = path(frame: 0)
        guard let slash = first.lastIndex(of: "/") else { return "." }
        return slash == first.startIndex ? "/" : String(first[..<slash])
    }
}
