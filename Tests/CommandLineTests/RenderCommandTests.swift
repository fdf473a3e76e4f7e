import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `fluidgradient render` for stills, end to end: stdout, stderr, exit status and files.
@Suite struct RenderCommandTests {
    @Test func rendersTheDefaultPresetToAPNG() throws {
        let scratch = Scratch()
        let result = run(["render", "-o", scratch.file("still.png")])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
        #expect(scratch.contents == ["still.png"])
        let image = try PNGFile.read(scratch.file("still.png"))
        #expect(image.width == 1920 && image.height == 1080 && image.channels == 3 && image.bitDepth == 8)
    }

    @Test(arguments: PresetLibrary.names)
    func rendersEveryBuiltInPresetAt1080p(name: String) throws {
        let scratch = Scratch()
        let result = run(["render", "--preset", name, "--size", "1920x1080", "-o", scratch.file("x.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGFile.read(scratch.file("x.png"))
        #expect(image.width == 1920 && image.height == 1080)
        // Not blank: a gradient has many distinct values.
        #expect(Set(image.samples.prefix(30_000)).count > 20)
    }

    @Test func builtInPresetsWorkFromAnyDirectory() throws {
        let scratch = Scratch()
        let result = run(["render", "--preset", "aurora", "--size", "64x36", "-o", scratch.file("a.png")], directory: "/")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGFile.read(scratch.file("a.png")).width == 64)
    }

    @Test func theSameInputsGiveTheSameBytesAtAnyThreadCount() throws {
        let scratch = Scratch()
        for threads in [1, 2, 5] {
            let result = run(["render", "--preset", "neon", "--size", "640x360", "--time", "1.3", "--threads", "\(threads)", "-o", scratch.file("t\(threads).png")])
            #expect(result.status == 0)
        }
        let files = try [1, 2, 5].map { try Data(contentsOf: URL(fileURLWithPath: scratch.file("t\($0).png"))) }
        #expect(files[0] == files[1] && files[1] == files[2])
    }

    @Test func writesRGBAWhenTheFrameHasTransparencyAnd16BitOnRequest() throws {
        let scratch = Scratch()
        #expect(run(["render", "--size", "64x36", "--background", "transparent", "-o", scratch.file("a.png")]).status == 0)
        let rgba = try PNGFile.read(scratch.file("a.png"))
        #expect(rgba.channels == 4 && rgba.bitDepth == 8)
        #expect(run(["render", "--size", "64x36", "--depth", "16", "-o", scratch.file("b.png")]).status == 0)
        let deep = try PNGFile.read(scratch.file("b.png"))
        #expect(deep.channels == 3 && deep.bitDepth == 16)
    }

    /// A hand-pinned scene, still, 16-bit and undithered, matches the definition.
    @Test func explicitStillSceneMatchesTheDefinition() throws {
        let scratch = Scratch()
        let preset = """
            {
              "name": "pinned",
              "blobs": [
                { "color": "#3366FF", "center": [0.2, 0.3], "radius": [0.5, 0.6], "opacity": 0.9 },
                { "color": "#FF6B6B", "center": [0.8, 0.7], "radius": [0.35, 0.5] }
              ],
              "highlightBlobs": [{ "color": "#FDE68A", "center": [0.55, 0.45], "radius": [0.3, 0.4], "opacity": 0.8 }],
              "background": "#101828",
              "speed": 0,
              "size": "160x90"
            }
            """
        try Data(preset.utf8).write(to: URL(fileURLWithPath: scratch.file("pinned.json")))
        let result = run(["render", "--preset", scratch.file("pinned.json"), "--depth", "16", "--dither", "off", "-o", scratch.file("p.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGFile.read(scratch.file("p.png"))
        let loaded = try PresetLibrary.file(scratch.file("pinned.json"))
        let reference = ReferenceRenderer.render(Animator(preset: loaded).scene(at: 0).rootLayer(width: 160, height: 90), spec: loaded.frameSpec)
        var largest = 0.0, total = 0.0
        for y in 0..<90 {
            for x in 0..<160 {
                let actual = image.rgba(x: x, y: y), expected = reference[x, y]
                for lane in 0..<3 {
                    let difference = abs(actual[lane] - expected[lane]) * 255
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        #expect(largest <= 2)
        #expect(total / Double(160 * 90 * 3) <= 0.5)
    }

    @Test func timePicksTheInstantOfAOneFrameOutput() throws {
        let scratch = Scratch()
        #expect(run(["render", "--preset", "ocean", "--size", "96x54", "--time", "1.5", "-o", scratch.file("t.png")]).status == 0)
        #expect(run(["render", "--preset", "ocean", "--size", "96x54", "--frame-range", "89-90", "-o", scratch.file("f%03d.png")]).status == 0)
        let single = try Data(contentsOf: URL(fileURLWithPath: scratch.file("t.png")))
        #expect(single == (try Data(contentsOf: URL(fileURLWithPath: scratch.file("f090.png")))))
        #expect(single != (try Data(contentsOf: URL(fileURLWithPath: scratch.file("f089.png")))))
    }

    /// A loop's period is its duration, so a still from a loop takes --duration too.
    @Test func aStillFromALoopUsesTheLoopsDuration() throws {
        let scratch = Scratch()
        let common = ["render", "--preset", "ocean", "--size", "96x54", "--loop"]
        #expect(run(common + ["--duration", "1", "--time", "0.5", "-o", scratch.file("t.png")]).status == 0)
        #expect(run(common + ["--duration", "1", "--frame-range", "30", "-o", scratch.file("f%03d.png")]).status == 0)
        #expect(run(common + ["--duration", "2", "--time", "0.5", "-o", scratch.file("longer.png")]).status == 0)
        let still = try PNGFile.read(scratch.file("t.png")).samples
        #expect(still == (try PNGFile.read(scratch.file("f030.png")).samples))
        #expect(still != (try PNGFile.read(scratch.file("longer.png")).samples))
    }

    /// A loop keeps only its solved last target, not every retarget step's: ten times the
    /// steps (173,000 → 1,730,000 per blob) once took 919 MB for one still. What is left
    /// grows by 16 transient bytes a step (the solution's weights), 25 MiB here.
    @Test func aLongLoopKeepsNoTargetPerStep() {
        func peak(duration: Int) -> Double {
            let result = run([
                "render", "--size", "32x18", "--loop", "--speed", "10", "--retarget-interval", "0.05...0.05",
                "--duration", "\(duration)", "--time", "0", "--stats", "-o", "-",
            ])
            #expect(result.status == 0)
            return result.reportedPeakMiB ?? .infinity
        }
        let short = peak(duration: 864), long = peak(duration: 8640)
        #expect(long - short < 64, "864 s: \(short) MiB, 8640 s: \(long) MiB")
    }

    @Test func helpTeachesTheFlags() {
        let result = run(["render", "--help"])
        #expect(result.status == 0)
        for flag in ["--preset", "--colors", "--background", "--size", "--edges", "--depth", "--dither", "--frame-range", "--time", "--loop", "-o"] {
            #expect(result.stdoutText.contains(flag), "help lacks \(flag)")
        }
        #expect(run(["--help"]).stdoutText.contains("Exit status"))
        // The defaults that flags override, as the default preset holds them.
        let defaults = run(["presets", "show", "default"]).stdoutText
        #expect(defaults.contains("size          1920x1080") && defaults.contains("seed          12"))
        let help = result.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(the default preset: 1920x1080, 60 fps, 10 s, loop, speed 0.8, blur 0.75, point scale 1, bleed edges, seed 12)"))
    }
}

/// Bad input: one line on stderr, exit status 2, and nothing written.
@Suite struct BadInputTests {
    /// Runs `arguments` and expects a usage error: status 2, one line on stderr that
    /// mentions `fragment`, nothing on stdout, and no file changed.
    @discardableResult
    static func expectRejected(
        _ arguments: [String], scratch: Scratch, mentions fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> CommandResult {
        let before = scratch.contents
        let result = run(arguments)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("fluidgradient: "), sourceLocation: sourceLocation)
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(scratch.contents == before, "files changed: \(scratch.contents)", sourceLocation: sourceLocation)
        return result
    }

    static func writePreset(_ text: String, in scratch: Scratch) -> String {
        let path = scratch.file("preset.json")
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func malformedJSON() {
        let scratch = Scratch()
        let preset = Self.writePreset("{ \"colors\": [\"red\" \"blue\"] }", in: scratch)
        Self.expectRejected(["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch, mentions: "preset.json:1: malformed JSON at column 20")
    }

    /// A preset or palette from a pipe (`<(...)`, `/dev/stdin`) is read like a file.
    @Test func presetsAndPalettesReadFromPipes() throws {
        let scratch = Scratch()
        let viaFile = scratch.file("file.png"), viaPipe = scratch.file("pipe.png")
        let preset = Self.writePreset(##"{ "colors": ["#FF5F6D", "#FFC371"], "seed": 3 }"##, in: scratch)
        #expect(run(["render", "--preset", preset, "--size", "32x18", "-o", viaFile]).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "'\(Binary.path)' render --preset <(cat '\(preset)') --palette <(echo '#FF5F6D'; echo '#FFC371') --size 32x18 -o '\(viaPipe)'"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(run(["compare", viaFile, viaPipe]).status == 0)
        Self.expectRejected(["render", "--preset", "/dev/null", "-o", scratch.file("x.png")], scratch: scratch, mentions: "/dev/null:1: malformed JSON")
        Self.expectRejected(["render", "--preset", scratch.path, "-o", scratch.file("x.png")], scratch: scratch, mentions: "it is a directory")
    }

    /// A sequence that starts past frame 0 names its own first file when it cannot write.
    @Test func aFrameRangeNamesItsFirstFileWhenItCannotWrite() {
        let scratch = Scratch()
        Self.expectRejected(
            ["render", "--size", "32x18", "--frames", "60", "--frame-range", "45-45", "-o", scratch.file("missing/%03d.png")], scratch: scratch,
            mentions: "cannot write \(scratch.file("missing/045.png")): the directory")
    }

    @Test func unknownKey() {
        let scratch = Scratch()
        let preset = Self.writePreset("{\n  \"colors\": [\"red\"],\n  \"sped\": 2\n}", in: scratch)
        Self.expectRejected(["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch, mentions: "preset.json:3: sped: \"sped\" is not a known key (did you mean \"speed\"?)")
    }

    @Test func badColour() {
        let scratch = Scratch()
        Self.expectRejected(["render", "--colors", "#0F766E,#12345", "-o", scratch.file("x.png")], scratch: scratch, mentions: "--colors: \"#12345\" is not a colour")
        let preset = Self.writePreset(#"{ "colors": ["red", "blurple"] }"#, in: scratch)
        Self.expectRejected(["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch, mentions: "colors[1]: \"blurple\" is not a colour")
    }

    @Test(arguments: ["0x0", "100000x100000", "1920x", "big"])
    func impossibleSize(size: String) {
        let scratch = Scratch()
        Self.expectRejected(["render", "--size", size, "-o", scratch.file("x.png")], scratch: scratch, mentions: "--size")
    }

    @Test func missingPreset() {
        let scratch = Scratch()
        Self.expectRejected(["render", "--preset", "nosuch", "-o", scratch.file("x.png")], scratch: scratch, mentions: "no built-in preset \"nosuch\"")
        Self.expectRejected(["render", "--preset", scratch.file("absent.json"), "-o", scratch.file("x.png")], scratch: scratch, mentions: "no such file")
    }

    @Test func outputDirectoryMissingOrUnwritable() throws {
        let scratch = Scratch()
        Self.expectRejected(["render", "-o", scratch.file("no/such/dir/x.png")], scratch: scratch, mentions: "does not exist")
        try Data().write(to: URL(fileURLWithPath: scratch.file("plain-file")))
        Self.expectRejected(["render", "-o", scratch.file("plain-file/x.png")], scratch: scratch, mentions: "is a file, not a directory")
        // A directory where the file should go is found before rendering, not after.
        try FileManager.default.createDirectory(atPath: scratch.file("taken.png"), withIntermediateDirectories: false)
        Self.expectRejected(["render", "-o", scratch.file("taken.png")], scratch: scratch, mentions: "it is a directory; name a file")
        Self.expectRejected(["render", "--size", "64x36", "--duration", "1", "-o", scratch.file("taken.png")], scratch: scratch, mentions: "it is a directory")
        // A trailing slash cannot name the file, and is refused before rendering, not at the rename.
        Self.expectRejected(
            ["render", "--size", "64x36", "--duration", "1", "-o", scratch.file("clip.mp4/")], scratch: scratch,
            mentions: "cannot write \(scratch.file("clip.mp4/")): a path that ends in / names a directory; write \(scratch.file("clip.mp4")) or name a file such as")
        Self.expectRejected(["render", "--size", "8x8", "-o", scratch.file("still.png/")], scratch: scratch, mentions: "a path that ends in / names a directory")
        // /proc accepts no new files, even from root.
        let result = run(["render", "--size", "8x8", "-o", "/proc/fluidgradient-test.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write /proc/fluidgradient-test.png"))
    }

    @Test func contradictoryOrMalformedFlags() {
        let scratch = Scratch()
        let cases: [(arguments: [String], mentions: String)] = [
            (["render", "--duration", "2", "--frames", "10", "-o", scratch.file("x.mp4")], "give one"),
            (["render", "--depth", "12", "-o", scratch.file("x.png")], "--depth must be 8 or 16"),
            (["render", "--speed", "50", "-o", scratch.file("x.png")], "--speed: 50 is outside the allowed 0...10"),
            (["render", "--edges", "wrap", "-o", scratch.file("x.png")], "wrap"),
            (["render", "--colr", "red", "-o", scratch.file("x.png")], "--colr"),
            (["render", "-o", scratch.file("x.avi")], "cannot tell what to write"),
            (["render", "--frames", "10", "--frame-range", "5-20", "-o", scratch.file("f%03d.png")], "goes past the last frame, 9"),
            (["render", "--size", "321x180", "--frames", "2", "-o", scratch.file("x.mp4")], "even width and height, but the size is 321x180; use 322x180"),
            (["render", "--colors", "red,,blue", "-o", scratch.file("x.png")], "--colors: \"red,,blue\" has an empty entry"),
            // Negative numbers reach the flag's own check instead of reading as flags.
            (["render", "--size", "-5x10", "-o", scratch.file("x.png")], "--size: -5x10 is not a usable size"),
            (["render", "--duration", "-1", "-o", scratch.file("x.mp4")], "--duration: -1 is outside the allowed"),
            (["render", "--frame-range", "-3", "-o", scratch.file("f%03d.png")], "--frame-range: \"-3\" is not a range"),
            // As long as --duration allows, whatever the frame rate (a larger count once crashed converting the length).
            (["render", "--frames", "9223372036854775807", "--fps", "30", "-o", scratch.file("f%03d.png")],
             "--frames: 9223372036854775807 frames at 30 fps last longer than 86400 s, the longest render; give at most 2592000"),
            // A number its option's type cannot hold says why.
            (["render", "--seed", "-1", "-o", scratch.file("x.png")], "--seed: '-1' cannot be negative (see `fluidgradient render --help`)"),
            (["render", "--seed", "99999999999999999999", "-o", scratch.file("x.png")], "--seed: '99999999999999999999' is too large"),
            (["render", "--frames", "2.5", "-o", scratch.file("x.mp4")], "--frames: '2.5' is not a whole number"),
            (["render", "--frames", "-99999999999999999999", "-o", scratch.file("x.mp4")], "--frames: '-99999999999999999999' is out of range"),
            (["render", "--speed", "fast", "-o", scratch.file("x.png")], "--speed: 'fast' is not a number"),
            (["bench", "--blobs", "ten"], "--blobs: 'ten' is not a number (see `fluidgradient bench --help`)"),
            (["palette", scratch.file("x.png"), "-n", "x"], "-n: 'x' is not a number (see `fluidgradient palette --help`)"),
            (["batch", scratch.file("m.json"), "--jobs", "-1"], "--jobs must be 1 to 64, not -1"),
            (["batch", scratch.file("m.json"), "--jobs", "--force"], "--jobs: '--force' is the next option; give a value first"),
            // A missing value is named at its option, not as a stray argument after it.
            (["render", "--size", "--fps", "30", "-o", scratch.file("x.png")], "--size: '--fps' is the next option; give a value first (see"),
            (["render", "--opacity", "--seed", "3", "-o", scratch.file("x.png")], "--opacity: '--seed' is the next option"),
            (["render", "--seed", "9007199254740992", "-o", scratch.file("x.png")], "--seed: 9007199254740992 is outside the allowed 0...9007199254740991"),
            (["render", "--ffmpeg-options", "--fps", "30", "-o", scratch.file("x.mp4")], "--ffmpeg-options: '--fps' is the next option"),
            (["render", "--ffmpeg-options", "-crf", "23", "-o", scratch.file("x.mp4")],
             "--ffmpeg-options takes one value, '-crf', so '23' was left over: quote all the ffmpeg options together, as in --ffmpeg-options \"-crf 23\" (see `fluidgradient render --help`)"),
            (["render", "--ffmpeg-options=-crf", "23", "-o", scratch.file("x.mp4")], "'23' was left over"),
            // A quoted value with a stray word after it is some other mistake.
            (["render", "--ffmpeg-options", "-crf 23", "30", "-o", scratch.file("x.mp4")], "Unexpected argument '30'"),
            // A line break in a path stays on the error's one line.
            (["render", "-o", scratch.file("no\ndir/x.png")], "no\\ndir/x.png: the directory"),
            (["render", "-o", scratch.file("no\u{202E}dir/x.png")], "no\\u{202E}dir/x.png: the directory"),
            (["rendr", "-o", scratch.file("x.png")], "unknown command 'rendr' (did you mean 'render'?)"),
            (["presets", "lst"], "unknown command 'lst' (did you mean 'list'?); the commands are list, show (see `fluidgradient presets --help`)"),
            (["help", "nope"], "unknown command 'nope'; the commands are render, "),
            (["help", "presets", "shw"], "unknown command 'shw' (did you mean 'show'?)"),
            (["render"], "give -o OUTPUT (such as out.png or out.mp4) or --bundle DIR (see `fluidgradient render --help`)"),
        ]
        for (arguments, mentions) in cases {
            Self.expectRejected(arguments, scratch: scratch, mentions: mentions)
        }
    }
}

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
            #"{ "name": "a\u001b[31mRED", "colors": ["red"], "blobs": [{ "color": "blue", "center": [0.5, 0.5], "radius": [0.3, 0.3] }] }"#,
            in: scratch)
        let result = run(["presets", "show", preset])
        #expect(result.status == 0)
        #expect(result.stdoutText.hasPrefix("a\\u{1B}[31mRED\nblobs\n  #0000FF   rgb(0, 0, 255)  center [0.5, 0.5] radius [0.3, 0.3] opacity 1\nhighlights    none\n"), "\(result.stdoutText)")
    }

    /// `presets show --json` writes a preset file that renders the same frames; `presets
    /// list --json` names every preset.
    @Test func exportsPresetsAsJSON() throws {
        let scratch = Scratch()
        let exported = run(["presets", "show", "aurora", "--json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        try exported.stdout.write(to: URL(fileURLWithPath: scratch.file("mine.json")))
        for (preset, output) in [("aurora", "a.png"), (scratch.file("mine.json"), "b.png")] {
            #expect(run(["render", "--preset", preset, "--size", "96x54", "--time", "1.5", "-o", scratch.file(output)]).status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: scratch.file("a.png"))), b = try Data(contentsOf: URL(fileURLWithPath: scratch.file("b.png")))
        #expect(a == b, "the exported preset renders differently")
        let listed = try #require(try JSONSerialization.jsonObject(with: run(["presets", "list", "--json"]).stdout) as? [[String: String]])
        #expect(listed.map { $0["name"] ?? "" } == PresetLibrary.names)
        #expect(listed.allSatisfy { !($0["description"] ?? "").isEmpty })
    }

    /// Explicit blobs are listed with their placement, highlights as well as base blobs,
    /// and a preset without a description shows its name alone.
    @Test func showsExplicitBlobs() throws {
        let scratch = Scratch()
        let path = scratch.file("p.json")
        try Data(##"{"colors": ["#112233"], "highlightBlobs": [{"color": "#FFFFFF", "center": [0.5, 0.25], "radius": [0.2, 0.3]}]}"##.utf8)
            .write(to: URL(fileURLWithPath: path))
        let lines = run(["presets", "show", path]).stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "untitled")
        let listed = lines.firstIndex(of: "highlightBlobs")
        #expect(listed != nil, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("highlights") && $0 != "highlightBlobs" }, "\(lines)")
        if let listed {
            #expect(lines[listed + 1] == "  #FFFFFF   rgb(255, 255, 255)  center [0.5, 0.25] radius [0.2, 0.3] opacity 1")
        }
    }
}
