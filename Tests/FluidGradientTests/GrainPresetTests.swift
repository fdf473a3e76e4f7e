import FluidGradient
import Foundation
import Testing

/// The preset file's `grain` key (DESIGN section 12): read, checked, written back, and
/// refused with the key path and the bounds when it cannot be used.
@Suite struct GrainPresetTests {
    static func read(_ grain: String) throws -> Preset {
        try Preset(json: Data("{ \"colors\": [\"#fff\"], \"grain\": \(grain) }".utf8), file: "p.json")
    }

    @Test func theKeyReadsWithItsDefaults() throws {
        #expect(
            try Self.read("{ \"amount\": 0.08 }").grain == Grain(amount: 0.08, size: 1, animated: false, mono: true))
        let full = try Self.read("{ \"amount\": 1, \"size\": 0.5, \"animated\": true, \"mono\": false }")
        #expect(full.grain == Grain(amount: 1, size: 0.5, animated: true, mono: false))
        #expect(try Preset(json: Data("{ \"colors\": [\"#fff\"] }".utf8), file: "p").grain == Grain())
        #expect(Preset(colors: [.white]).grain.amount == 0)
    }

    /// Written back with every member when it differs from no grain, left out otherwise;
    /// the text reads back equal, at random settings from the seeded generator.
    @Test func theKeyRoundTrips() throws {
        var preset = Preset(colors: [.white])
        #expect(!preset.jsonText.contains("grain"))
        var generator = SplitMix64(seed: 36)
        for _ in 0..<40 {
            preset.grain = Grain(
                amount: (generator.nextUnit() * 1000).rounded() / 1000,
                size: 0.5 + (generator.nextUnit() * 75).rounded() / 10,
                animated: generator.next() % 2 == 0, mono: generator.next() % 2 == 0)
            let read = try Preset(json: Data(preset.jsonText.utf8), file: "again")
            #expect(read == preset)
            #expect(read.jsonText == preset.jsonText)
        }
        preset.grain = Grain(amount: 0.08)
        #expect(
            preset.jsonText.contains(
                "\"grain\": { \"amount\": 0.08, \"size\": 1, \"animated\": false, \"mono\": true }"))
    }

    /// Every bad value is one line that names the file, the line, the key path and what
    /// was expected.
    @Test(arguments: [
        ("-0.1", "p.json:1: grain: expected an object, found a number"),
        ("{ \"amount\": -0.1 }", "p.json:1: grain.amount: -0.1 is outside the allowed range 0...1"),
        ("{ \"amount\": 1.5 }", "p.json:1: grain.amount: 1.5 is outside the allowed range 0...1"),
        ("{ \"amount\": 1e300 }", "p.json:1: grain.amount: 1e300 is outside the allowed range 0...1"),
        ("{ \"amount\": \"NaN\" }", "p.json:1: grain.amount: expected a number, found a string"),
        ("{ \"amount\": 0.1, \"size\": 0.25 }", "p.json:1: grain.size: 0.25 is outside the allowed range 0.5...8"),
        ("{ \"amount\": 0.1, \"size\": 9 }", "p.json:1: grain.size: 9 is outside the allowed range 0.5...8"),
        ("{ \"amount\": 0.1, \"animated\": 1 }", "p.json:1: grain.animated: expected true or false, found a number"),
        ("{ \"amount\": 0.1, \"mono\": \"yes\" }", "p.json:1: grain.mono: expected true or false, found a string"),
        ("{ \"size\": 2 }", "p.json:1: grain: grain needs \"amount\", 0...1, such as { \"amount\": 0.08 }"),
        (
            "{ \"amount\": 0.1, \"sise\": 2 }",
            "p.json:1: grain.sise: \"sise\" is not a known key (did you mean \"size\"?); "
                + "expected one of: amount, size, animated, mono"
        ),
    ])
    func aBadValueIsOneLineNamingTheKey(grain: String, message: String) {
        #expect {
            try Self.read(grain)
        } throws: { error in
            "\(error)" == message
        }
    }

    /// A preset built in code is held to the same bounds, NaN included.
    @Test(arguments: [
        (Grain(amount: .nan), "grain.amount: nan is outside the allowed range 0...1"),
        (Grain(amount: -1), "grain.amount: -1 is outside the allowed range 0...1"),
        (Grain(amount: 0.1, size: .infinity), "grain.size: inf is outside the allowed range 0.5...8"),
        (Grain(amount: 0, size: 0), "grain.size: 0 is outside the allowed range 0.5...8"),
    ])
    func aPresetBuiltInCodeIsChecked(grain: Grain, message: String) {
        var preset = Preset(colors: [.white])
        preset.name = "code"
        preset.grain = grain
        #expect {
            try preset.frame(at: 0, width: 16, height: 16)
        } throws: { error in
            "\(error)" == "code: " + message
        }
    }
}
