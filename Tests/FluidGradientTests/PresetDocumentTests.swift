import FluidGradient
import Foundation
import Testing

/// A preset read from a document in memory and written back as normalized text: what a
/// service outside the package reads from a request and hashes.
@Suite struct PresetDocumentTests {
    @Test func dataReadsAsTheFileBytesDo() throws {
        for name in PresetFixtures.builtInNames {
            let bytes = try [UInt8](Data(contentsOf: PresetFixtures.directory.appendingPathComponent(name + ".json")))
            let preset = try Preset(json: Data(bytes), file: name + ".json")
            #expect(preset == (try PresetFixtures.builtIn(name)), "\(name)")
            #expect(try Preset(json: Data(preset.jsonText.utf8), file: name) == preset, "\(name)")
        }
    }

    /// Random presets from the seeded generator: the text reads back equal, and reading
    /// it again gives the same text (it is a fixed point, so it can be hashed). Colours
    /// are whole 8-bit levels, which is what the text's hex holds.
    @Test func normalizedTextIsAFixedPoint() throws {
        var generator = SplitMix64(seed: 26)
        func level() -> Double { (generator.nextUnit() * 255).rounded(.down) / 255 }
        for round in 0..<50 {
            let colors = (0..<(1 + round % 5)).map { _ in RGBA(red: level(), green: level(), blue: level()) }
            var preset = Preset(colors: colors)
            preset.name = "random \(round)"
            preset.speed = (generator.nextUnit() * 10 * 1000).rounded() / 1000
            preset.blur = (generator.nextUnit() * 1000).rounded() / 1000
            preset.seed = UInt64(generator.nextUnit() * 1e9)
            preset.loop = round % 2 == 0
            preset.width = 1 + Int(generator.nextUnit() * 4000)
            let text = preset.jsonText
            let read = try Preset(json: Data(text.utf8), file: "random")
            #expect(read == preset, "round \(round)")
            #expect(read.jsonText == text, "round \(round)")
        }
    }

    @Test func aBadDocumentNamesItsFileLineAndKeyPath() {
        let cases: [(text: String, line: Int, keyPath: String)] = [
            ("{\n  \"colors\": [\"#fff\"],\n  \"blobSize\": { \"min\": \"big\", \"max\": 1 }\n}", 3, "blobSize.min"),
            ("{\n  \"colors\": [\"#fff\",\n    \"nope\"]\n}", 3, "colors[1]"),
        ]
        for (text, line, keyPath) in cases {
            #expect {
                try Preset(json: Data(text.utf8), file: "request")
            } throws: { error in
                guard let error = error as? PresetError else { return false }
                return error.file == "request" && error.line == line && error.keyPath == keyPath
                    && error.description.hasPrefix("request:\(line): \(keyPath): ")
            }
        }
        #expect(PresetError(file: "x", reason: .missingColors).keyPath == "")
    }
}
