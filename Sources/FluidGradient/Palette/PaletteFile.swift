/// Brand palettes: a JSON list of colours, or one colour per line (the first word of
/// each line; `fluidgradient palette`'s output, as printed, is one).
package enum PaletteFile {
    /// Reads a palette's colours; errors name the file and the line or index.
    package static func colors(_ bytes: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            throw PresetError(file: file, reason: .imageNotPalette(file: file))
        }
        // A byte-order mark, as Windows editors write, is not part of the first colour.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else {
            throw PresetError(file: file, reason: .notText)
        }
        if text.trimmingSpaces().hasPrefix("[") {
            return try listedColors(body, file: file)
        }
        var colors: [RGBA] = []
        // Any line ending: "\r\n" is one Character, which a split on "\n" would not see.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // Words stay slices of the line: a line of many words is split once, in linear time.
            // A colour function's spaces (`oklch(63.7% 0.237 25.331)`) keep it one word.
            let words = line.splitOutsideParentheses(omittingEmpty: true, where: \.isWhitespace)
            guard let first = words.first.map(String.init) else { continue }
            let color: RGBA
            do {
                color = try RGBA(parsing: first)
            } catch {
                throw PresetError(file: file, line: number + 1, reason: error.reason)
            }
            // The rest of the line is a note, as in `fluidgradient palette`'s output
            // (`#D45649   rgb(212, 86, 73)   31.9%`, the same colour again), unless it holds
            // another colour.
            let isAnotherColor = { (word: Substring) in
                RGBA.parsed(String(word)).map { $0.bytes != color.bytes } ?? false
            }
            if let second = words.dropFirst().first(where: isAnotherColor) {
                throw PresetError(file: file, line: number + 1, reason: .twoColorsOnALine(first, String(second)))
            }
            colors.append(color)
        }
        guard PresetLimits.colorCount.contains(colors.count) else {
            throw PresetError(file: file, reason: .paletteCount(found: colors.count, allowed: PresetLimits.colorCount))
        }
        return colors
    }

    /// A JSON list of colours, each a string or, as `fluidgradient palette --json` prints
    /// them, an object `{ "color": ..., "share": ... }`.
    private static func listedColors(_ body: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        let reader = JSONReader(file: file)
        return try reader.colors(try reader.parse(body), at: [], count: PresetLimits.colorCount) {
            element, path throws(PresetError) in
            guard case .object = element.value else { return try reader.color(element, at: path) }
            let members = try reader.object(element, at: path, allowed: ["color", "share"])
            guard let color = members["color"] else { throw reader.error(path, element, .paletteEntryNeedsColor) }
            return try reader.color(color, at: members.path("color"))
        }
    }
}
