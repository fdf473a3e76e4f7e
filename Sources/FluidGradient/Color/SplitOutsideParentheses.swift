extension StringProtocol {
    /// The text split where `isSeparator` holds outside parentheses, so that a CSS colour
    /// function's own commas and spaces stay in one part: `red, rgb(1, 2, 3)` split at
    /// commas is `red` and ` rgb(1, 2, 3)`. A `)` without its `(` counts as text.
    ///
    /// - Parameters:
    ///   - omittingEmpty: whether empty parts are left out.
    ///   - isSeparator: whether a character separates parts.
    /// - Returns: the parts in order, in time linear in the text's length.
    package func splitOutsideParentheses(
        omittingEmpty: Bool, where isSeparator: (Character) -> Bool
    ) -> [SubSequence] {
        var parts: [SubSequence] = []
        var depth = 0, start = startIndex, index = startIndex
        while index < endIndex {
            let character = self[index]
            if character == "(" {
                depth += 1
            } else if character == ")", depth > 0 {
                depth -= 1
            } else if depth == 0, isSeparator(character) {
                if !omittingEmpty || start < index { parts.append(self[start..<index]) }
                start = self.index(after: index)
            }
            index = self.index(after: index)
        }
        if !omittingEmpty || start < endIndex { parts.append(self[start..<endIndex]) }
        return parts
    }
}
