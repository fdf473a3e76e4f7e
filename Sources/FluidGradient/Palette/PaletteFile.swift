/// Brand palettes: a JSON list of colours, or one colour per line (the first word of
/// each line; `fluidgradient palette`'s output, as printed, is one).
package enum PaletteFile {
    /// Reads a palette's colours; errors name the file and the line or index.
    package static func colors(_ bytes: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            throw PresetError(
                file: file, path: "",
                message: "this is a PNG image, not a palette (one colour per line or a JSON list); to take its colours, run: fluidgradient palette \(file)")
        }
        // A byte-order mark, as Windows editors write, is not part of the first colour.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard !body.contains(0), let text = String(validating: body, as: UTF8.self) else {
            throw PresetError(file: file, path: "", message: "not a text file; a palette is one colour per line or a JSON list of colours")
        }
        if text.trimmingSpaces().hasPrefix("[") {
            return try listedColors(body, file: file)
        }
        var colors: [RGBA] = []
        // Any line ending: "\r\n" is one Character, which a split on "\n" would not see.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // Words stay slices of the line: a line of many words is split once, in linear time.
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let first = words.first.map(String.init) else { continue }
            let color: RGBA
            do {
                color = try RGBA(parsing: first)
            } catch {
                throw PresetError(file: file, path: "", message: error.description, line: number + 1)
            }
            // The rest of the line is a note, as in `fluidgradient palette`'s output
            // (`#D45649   rgb(212, 86, 73)   31.9%`), unless it holds a colour too.
            if let second = words.dropFirst().first(where: { RGBA.parsed(String($0)) != nil }) {
                throw PresetError(
                    file: file, path: "", message: "\"\(first)\" and \"\(second)\" are both colours; put one colour on each line", line: number + 1)
            }
            colors.append(color)
        }
        guard PresetLimits.colorCount.contains(colors.count) else {
            throw PresetError(
                file: file, path: "",
                message: "expected \(PresetLimits.colorCount.lowerBound) to \(PresetLimits.colorCount.upperBound) colours, one per line or as a JSON list, found \(colors.count)")
        }
        return colors
    }

    /// A JSON list of colours, each a string or, as `fluidgradient palette --json` prints
    /// them, an object `{ "color": ..., "share": ... }`.
    private static func listedColors(_ body: [UInt8], file: String) throws(PresetError) -> [RGBA] {
        let reader = JSONReader(file: file)
        return try reader.read(body) { root throws(PresetError) in
            try reader.colors(root, at: "", count: PresetLimits.colorCount) { element, path throws(PresetError) in
                guard case .object = element.value else { return try reader.color(element, at: path) }
                let members = try reader.object(element, at: path, allowed: ["color", "share"])
                guard let color = members["color"] else { throw reader.error(path, "a palette entry needs \"color\"") }
                return try reader.color(color, at: members.path("color"))
            }
        }
    }
}
