import FluidGradient
import FluidGradientIO
import Foundation
import Testing

@Suite struct PresetsCommandTests {
    @Test func listsEveryPreset() {
        let result = run(["presets", "list"])
        #expect(result.status == 0)
        for name in PresetLibrary.names { #expect(result.stdoutText.contains(name)) }
        #expect(run(["presets"]).stdoutText == result.stdoutText)
    }

    @Test func showsColoursAsHexAndChannels() {
        let result = run(["presets", "show", "aurora"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("#0F766E   rgb(15, 118, 110)"))
        #expect(result.stdoutText.contains("#F0ABFC   rgb(240, 171, 252)"))
        #expect(result.stdoutText.contains("background    #020617   rgb(2, 6, 23)"))
        #expect(!result.stdoutText.contains("\u{1B}["), "no swatches when stdout is not a terminal")
        let missing = run(["presets", "show", "nosuch"])
        #expect(missing.status == 2)
        let unnamed = run(["presets", "show"])
        #expect(unnamed.stderr.hasSuffix("(see `fluidgradient presets show --help`)\n"), "\(unnamed.stderr)")
    }

    /// What renders is shown: explicit blobs, not the colours they replace; and a file's
    /// name cannot send escape sequences to the terminal.
    @Test func showsExplicitBlobsAndEscapesTheName() {
        let scratch = Scratch()
        let preset = BadInputTests.writePreset(
            #"{ "name": "a\u001b[31mRED", "colors": ["red"], "#
                + #""blobs": [{ "color": "blue", "center": [0.5, 0.5], "radius": [0.3, 0.3] }] }"#,
            in: scratch)
        let result = run(["presets", "show", preset])
        #expect(result.status == 0)
        #expect(
            result.stdoutText.hasPrefix(
                "a\\u{1B}[31mRED\nblobs\n"
                    + "  #0000FF   rgb(0, 0, 255)  center [0.5, 0.5] radius [0.3, 0.3] opacity 1\nhighlights    none\n"
            ), "\(result.stdoutText)")
    }

    /// `presets show --json` writes a preset file that renders the same frames; `presets
    /// list --json` names every preset.
    @Test func exportsPresetsAsJSON() throws {
        let scratch = Scratch()
        let exported = run(["presets", "show", "aurora", "--json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        try exported.stdout.write(to: URL(fileURLWithPath: scratch.file("mine.json")))
        for (preset, output) in [("aurora", "a.png"), (scratch.file("mine.json"), "b.png")] {
            #expect(
                run(["render", "--preset", preset, "--size", "96x54", "--time", "1.5", "-o", scratch.file(output)])
                    .status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: scratch.file("a.png"))),
            b = try Data(contentsOf: URL(fileURLWithPath: scratch.file("b.png")))
        #expect(a == b, "the exported preset renders differently")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: run(["presets", "list", "--json"]).stdout) as? [[String: String]])
        #expect(listed.map { $0["name"] ?? "" } == PresetLibrary.names)
        #expect(listed.allSatisfy { !($0["description"] ?? "").isEmpty })
    }

    /// Explicit blobs are listed with their placement, highlights as well as base blobs,
    /// and a preset without a description shows its name alone.
    @Test func showsExplicitBlobs() throws {
        let scratch = Scratch()
        let path = scratch.file("p.json")
        try Data(
            (##"{"colors": ["#112233"], "##
                + ##""highlightBlobs": [{"color": "#FFFFFF", "center": [0.5, 0.25], "radius": [0.2, 0.3]}]}"##)
                .utf8
        )
        .write(to: URL(fileURLWithPath: path))
        let lines = run(["presets", "show", path]).stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "untitled")
        let listed = lines.firstIndex(of: "highlightBlobs")
        #expect(listed != nil, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("highlights") && $0 != "highlightBlobs" }, "\(lines)")
        if let listed {
            #expect(
                lines[listed + 1] == "  #FFFFFF   rgb(255, 255, 255)  center [0.5, 0.25] radius [0.2, 0.3] opacity 1")
        }
    }
}
