import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Grain from the command line: its flags, its preset key in `presets show`, and its
/// bytes at any thread count and for frame ranges.
@Suite struct GrainCommandTests {
    static let small = ["render", "--preset", "aurora", "--size", "96x54"]

    @Test(arguments: [
        (["--grain", "-0.1"], "--grain: -0.1 is outside the allowed 0...1"),
        (["--grain", "1.5"], "--grain: 1.5 is outside the allowed 0...1"),
        (["--grain", "nan"], "--grain: nan is outside the allowed 0...1"),
        (["--grain", "inf"], "--grain: inf is outside the allowed 0...1"),
        (["--grain", "lots"], "--grain: 'lots' is not a number"),
        (["--grain", "0.1", "--grain-size", "0.25"], "--grain-size: 0.25 is outside the allowed 0.5...8"),
        (["--grain", "0.1", "--grain-size", "-2"], "--grain-size: -2 is outside the allowed 0.5...8"),
    ])
    func badFlagsAreOneLineNamingTheFlag(flags: [String], message: String) {
        let scratch = Scratch()
        BadInputTests.expectRejected(
            Self.small + flags + ["-o", scratch.file("x.png")], scratch: scratch, mentions: message)
    }

    @Test func aBadKeyInAPresetFileNamesItsKeyPath() {
        let scratch = Scratch()
        let preset = BadInputTests.writePreset(
            "{ \"colors\": [\"#fff\"],\n  \"grain\": { \"amount\": 0.2, \"size\": 12 } }", in: scratch)
        BadInputTests.expectRejected(
            ["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "preset.json:2: grain.size: 12 is outside the allowed range 0.5...8")
    }

    /// The flags set the preset's key: the still is the library's frame for that grain, and
    /// `--grain 0` is the preset without grain, byte for byte.
    @Test func theFlagsSetThePresetsGrain() throws {
        let scratch = Scratch()
        let flags = ["--grain", "0.3", "--grain-size", "2", "--grain-animated", "--no-grain-mono", "--time", "0.5"]
        #expect(run(Self.small + flags + ["-o", scratch.file("flags.png")]).status == 0)
        var preset = try PresetLibrary.builtIn("aurora")
        preset.grain = Grain(amount: 0.3, size: 2, animated: true, mono: false)
        let frame = try preset.frame(at: 0.5, width: 96, height: 54)
        try Data(try frame.pngData()).write(to: URL(fileURLWithPath: scratch.file("library.png")))
        #expect(run(["compare", scratch.file("flags.png"), scratch.file("library.png")]).status == 0)
        #expect(run(Self.small + ["--grain", "0", "-o", scratch.file("zero.png")]).status == 0)
        #expect(run(Self.small + ["-o", scratch.file("none.png")]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: scratch.file("zero.png")))
                == Data(
                    contentsOf: URL(fileURLWithPath: scratch.file("none.png"))))
    }

    /// DESIGN section 9 with grain: the same bytes at 1 and 3 threads, and a frame range
    /// gives the whole run's frames (animated grain's phase is the frame's index).
    @Test func theSameBytesAtAnyThreadCountAndForFrameRanges() throws {
        let scratch = Scratch()
        let common = Self.small + ["--grain", "0.2", "--grain-animated", "--duration", "0.2", "--fps", "60"]
        #expect(run(common + ["--threads", "1", "-o", scratch.file("one-%02d.png")]).status == 0)
        #expect(run(common + ["--threads", "3", "-o", scratch.file("three-%02d.png")]).status == 0)
        #expect(
            run(common + ["--frame-range", "5-9", "--threads", "2", "-o", scratch.file("range-%02d.png")]).status == 0)
        for index in 0..<12 {
            let name = String(format: "%02d.png", index)
            let one = try Data(contentsOf: URL(fileURLWithPath: scratch.file("one-" + name)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("three-" + name))) == one, "\(name)")
            if (5...9).contains(index) {
                #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("range-" + name))) == one, "\(name)")
            }
        }
    }

    @Test func presetsShowSaysTheGrain() throws {
        let scratch = Scratch()
        let preset = BadInputTests.writePreset(
            "{ \"name\": \"grainy\", \"colors\": [\"#fff\"], \"grain\": { \"amount\": 0.08, \"animated\": true } }",
            in: scratch)
        let shown = run(["presets", "show", preset]).stdoutText
        #expect(shown.contains("\ngrain         0.08, 1-point cells, animated (8 phases), mono\n"), "\(shown)")
        let json = run(["presets", "show", preset, "--json"]).stdoutText
        #expect(json.contains("\"grain\": { \"amount\": 0.08, \"size\": 1, \"animated\": true, \"mono\": true }"))
        #expect(run(["presets", "show", "aurora"]).stdoutText.contains("\ngrain         none"))
    }
}
