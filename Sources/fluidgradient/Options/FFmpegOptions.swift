import FluidGradientIO

/// `--ffmpeg-options`: one string, split into ffmpeg's arguments as a POSIX shell
/// would split it, so `-metadata title="My clip"` stays two words.
enum FFmpegOptions {
    static func words(_ text: String) throws(CommandError) -> [String] {
        var words: [String] = []
        var word = "", inWord = false
        var quote: Character? = nil
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch (quote, character) {
            case (nil, _) where character.isWhitespace:
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case (nil, "\\"), ("\"", "\\"):
                guard let next = characters.next() else {
                    throw CommandError.input("--ffmpeg-options ends with a lone backslash")
                }
                // Inside double quotes a backslash only escapes ", \, $ and `.
                if quote == "\"", !"\"\\$`".contains(next) { word.append("\\") }
                word.append(next)
                inWord = true
            case (let open?, _) where character == open:
                quote = nil
            default:
                word.append(character)
                inWord = true
            }
        }
        if let quote {
            throw CommandError.input("--ffmpeg-options has an unclosed \(quote): \(text)")
        }
        if inWord { words.append(word) }
        return words
    }
}
