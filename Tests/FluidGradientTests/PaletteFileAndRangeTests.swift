import FluidGradient
import Foundation
import Testing

@Suite struct PaletteFileAndRangeTests {
    @Test func readsListsAndLines() throws {
        #expect(
            try PaletteFile.colors(Array(##"["#FF0000", "teal"]"##.utf8), file: "p.json").map(\.hex) == [
                "#FF0000", "#008080",
            ])
        #expect(
            try PaletteFile.colors(Array("#FF0000\n\n  teal  \n".utf8), file: "p.txt").map(\.hex) == [
                "#FF0000", "#008080",
            ])
        #expect(throws: PresetError(file: "p.txt", line: 2, reason: .notAColor("nope", suggestion: nil))) {
            try PaletteFile.colors(Array("red\nnope\n".utf8), file: "p.txt")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array("\n\n".utf8), file: "empty.txt") }
        // Windows line endings, and a bad colour on a CRLF line named by its own number.
        #expect(
            try PaletteFile.colors(Array("#FF0000\r\nteal\r\n".utf8), file: "p.txt").map(\.hex) == [
                "#FF0000", "#008080",
            ])
        #expect(throws: PresetError(file: "p.txt", line: 2, reason: .notAColor("nope", suggestion: nil))) {
            try PaletteFile.colors(Array("red\r\nnope\r\n".utf8), file: "p.txt")
        }
        // A byte-order mark, as Windows editors write.
        #expect(
            try PaletteFile.colors([0xEF, 0xBB, 0xBF] + Array("#FF0000\r\nteal\r\n".utf8), file: "p.txt").map(\.hex)
                == ["#FF0000", "#008080"])
        // An image or other binary file, which would print its bytes in the error.
        #expect(throws: PresetError(file: "photo.png", reason: .imageNotPalette(file: "photo.png"))) {
            try PaletteFile.colors([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], file: "photo.png")
        }
        #expect(throws: PresetError(file: "a.bin", reason: .notText)) {
            try PaletteFile.colors([0x72, 0x65, 0x64, 0x0A, 0xFF, 0xFE], file: "a.bin")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array(#"["red", 3]"#.utf8), file: "p.json") }
    }

    @Test func readsWhatThePaletteCommandPrints() throws {
        // Its lines, as printed: the colour, then notes.
        let lines = "#D45649   rgb(212, 86, 73)     31.9%\n#5460CD   rgb(84, 96, 205)     23.4%\n"
        #expect(try PaletteFile.colors(Array(lines.utf8), file: "p.txt").map(\.hex) == ["#D45649", "#5460CD"])
        // Two colours on one line would lose the second.
        #expect(throws: PresetError(file: "p.txt", line: 2, reason: .twoColorsOnALine("red", "#00F"))) {
            try PaletteFile.colors(Array("teal\nred 50% #00F\n".utf8), file: "p.txt")
        }
        // Its JSON: objects with the colour and its share.
        let json = ##"[{ "color": "#D45649", "share": 0.319 }, "teal"]"##
        #expect(try PaletteFile.colors(Array(json.utf8), file: "p.json").map(\.hex) == ["#D45649", "#008080"])
        #expect(throws: PresetError(file: "p.json", line: 1, path: [.index(0)], reason: .paletteEntryNeedsColor)) {
            try PaletteFile.colors(Array(##"[{ "share": 1 }]"##.utf8), file: "p.json")
        }
        #expect(
            throws: PresetError(
                file: "p.json", line: 1, path: [.index(0), .key("color")], reason: .notAColor("nope", suggestion: nil))
        ) {
            try PaletteFile.colors(Array(##"[{ "color": "nope" }]"##.utf8), file: "p.json")
        }
        #expect(throws: PresetError.self) {
            try PaletteFile.colors(Array(##"[{ "color": "red", "weight": 1 }]"##.utf8), file: "p.json")
        }
        #expect(throws: PresetError.self) { try PaletteFile.colors(Array("[]".utf8), file: "p.json") }
    }

    @Test func rangesParseWithAnOptionalStep() throws {
        #expect(
            try ParameterRange(parsing: "0.2...0.6", option: "blob-size", bounds: 0...4) == ParameterRange(0.2, 0.6))
        #expect(
            try ParameterRange(parsing: "0.2...0.6/0.1", option: "blob-size", bounds: 0...4)
                == ParameterRange(0.2, 0.6, step: 0.1))
        #expect(try ParameterRange(parsing: "0.5", option: "opacity", bounds: 0...1) == ParameterRange(0.5, 0.5))
    }

    @Test(arguments: [
        ("0.8...0.2", "has min greater than max"),
        ("0.2...5", "is out of bounds"),
        ("a...b", "is not a range"),
        ("0.2...0.6/-1", "has a bad step"),
        ("0.1..0.5", "is not a range"),
    ])
    func rangeErrorsNameTheParameterTheBoundsAndTheValue(text: String, reason: String) {
        do {
            _ = try ParameterRange(parsing: text, option: "blob-size", bounds: 0...4)
            Issue.record("accepted \(text)")
        } catch {
            #expect(
                error.description
                    == "--blob-size: \"\(text)\" \(reason); expected MIN...MAX or MIN...MAX/STEP within 0...4")
        }
    }

    @Test func everyBuiltInPresetRoundTripsThroughJSON() throws {
        for name in PresetFixtures.builtInNames {
            let preset = try PresetFixtures.builtIn(name)
            #expect(try Preset(json: Array(preset.jsonText.utf8), file: name) == preset, "\(name)")
        }
        var pinned = Preset(colors: [])
        pinned.blobs = [Blob(color: .white, center: SIMD2(0.25, 0.75), radius: SIMD2(0.5, 0.125), opacity: 0.5)]
        pinned.ranges.size = ParameterRange(0.1, 0.3, step: 0.05)
        pinned.edges = .clamp
        #expect(try Preset(json: Array(pinned.jsonText.utf8), file: "pinned") == pinned)
    }
}
