import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Bad input: one line on stderr, exit status 2, and nothing written.
@Suite struct BadInputTests {
    /// Runs `arguments` and expects a usage error: status 2, one line on stderr that
    /// mentions `fragment`, nothing on stdout, and no file changed.
    @discardableResult
    static func expectRejected(
        _ arguments: [String], scratch: Scratch, mentions fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CommandResult {
        let before = scratch.contents
        let result = run(arguments)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("fluidgradient: "), sourceLocation: sourceLocation)
        #expect(
            result.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(result.stderr)",
            sourceLocation: sourceLocation)
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
        Self.expectRejected(
            ["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "preset.json:1: malformed JSON at column 20")
    }

    /// A preset or palette from a pipe (`<(...)`, `/dev/stdin`) is read like a file.
    @Test func presetsAndPalettesReadFromPipes() throws {
        let scratch = Scratch()
        let viaFile = scratch.file("file.png"), viaPipe = scratch.file("pipe.png")
        let preset = Self.writePreset(##"{ "colors": ["#FF5F6D", "#FFC371"], "seed": 3 }"##, in: scratch)
        #expect(run(["render", "--preset", preset, "--size", "32x18", "-o", viaFile]).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "'\(Binary.path)' render --preset <(cat '\(preset)') --palette <(echo '#FF5F6D'; echo '#FFC371') "
                + "--size 32x18 -o '\(viaPipe)'",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(run(["compare", viaFile, viaPipe]).status == 0)
        Self.expectRejected(
            ["render", "--preset", "/dev/null", "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "/dev/null:1: malformed JSON")
        Self.expectRejected(
            ["render", "--preset", scratch.path, "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "it is a directory")
    }

    /// A sequence that starts past frame 0 names its own first file when it cannot write.
    @Test func aFrameRangeNamesItsFirstFileWhenItCannotWrite() {
        let scratch = Scratch()
        Self.expectRejected(
            [
                "render", "--size", "32x18", "--frames", "60", "--frame-range", "45-45", "-o",
                scratch.file("missing/%03d.png"),
            ], scratch: scratch,
            mentions: "cannot write \(scratch.file("missing/045.png")): the directory")
    }

    /// An animated image is one loop whose pieces do not join (docs/scale-out.md), so it
    /// takes no frame range; video pieces and PNG frames do.
    @Test(arguments: ["gif", "webp", "apng", "avif"]) func animatedImagesRefuseFrameRanges(ext: String) {
        let scratch = Scratch()
        Self.expectRejected(
            [
                "render", "--size", "32x18", "--frames", "12", "--frame-range", "0-4", "-o",
                scratch.file("piece." + ext),
            ],
            scratch: scratch,
            mentions: "--frame-range: an animated image (.\(ext)) is one loop, and its pieces do not join; render the "
                + "range as a video piece (.mp4, .mov or .webm, joined by ffmpeg's concat demuxer) or as PNG frames")
    }

    @Test func unknownKey() {
        let scratch = Scratch()
        let preset = Self.writePreset("{\n  \"colors\": [\"red\"],\n  \"sped\": 2\n}", in: scratch)
        Self.expectRejected(
            ["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "preset.json:3: sped: \"sped\" is not a known key (did you mean \"speed\"?)")
    }

    @Test func badColour() {
        let scratch = Scratch()
        Self.expectRejected(
            ["render", "--colors", "#0F766E,#12345", "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "--colors: \"#12345\" is not a colour")
        let preset = Self.writePreset(#"{ "colors": ["red", "blurple"] }"#, in: scratch)
        Self.expectRejected(
            ["render", "--preset", preset, "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "colors[1]: \"blurple\" is not a colour")
    }

    @Test(arguments: ["0x0", "100000x100000", "1920x", "big"])
    func impossibleSize(size: String) {
        let scratch = Scratch()
        Self.expectRejected(
            ["render", "--size", size, "-o", scratch.file("x.png")], scratch: scratch, mentions: "--size")
    }

    @Test func missingPreset() {
        let scratch = Scratch()
        Self.expectRejected(
            ["render", "--preset", "nosuch", "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "no built-in preset \"nosuch\"")
        Self.expectRejected(
            ["render", "--preset", scratch.file("absent.json"), "-o", scratch.file("x.png")], scratch: scratch,
            mentions: "no such file")
    }

    @Test func outputDirectoryMissingOrUnwritable() throws {
        let scratch = Scratch()
        Self.expectRejected(
            ["render", "-o", scratch.file("no/such/dir/x.png")], scratch: scratch, mentions: "does not exist")
        try Data().write(to: URL(fileURLWithPath: scratch.file("plain-file")))
        Self.expectRejected(
            ["render", "-o", scratch.file("plain-file/x.png")], scratch: scratch, mentions: "is a file, not a directory"
        )
        // A directory where the file should go is found before rendering, not after.
        try FileManager.default.createDirectory(atPath: scratch.file("taken.png"), withIntermediateDirectories: false)
        Self.expectRejected(
            ["render", "-o", scratch.file("taken.png")], scratch: scratch, mentions: "it is a directory; name a file")
        Self.expectRejected(
            ["render", "--size", "64x36", "--duration", "1", "-o", scratch.file("taken.png")], scratch: scratch,
            mentions: "it is a directory")
        // A trailing slash cannot name the file, and is refused before rendering, not at the rename.
        Self.expectRejected(
            ["render", "--size", "64x36", "--duration", "1", "-o", scratch.file("clip.mp4/")], scratch: scratch,
            mentions:
                "cannot write \(scratch.file("clip.mp4/")): a path that ends in / names a directory; "
                + "write \(scratch.file("clip.mp4")) or name a file such as"
        )
        Self.expectRejected(
            ["render", "--size", "8x8", "-o", scratch.file("still.png/")], scratch: scratch,
            mentions: "a path that ends in / names a directory")
        // /proc accepts no new files, even from root.
        let result = run(["render", "--size", "8x8", "-o", "/proc/fluidgradient-test.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write /proc/fluidgradient-test.png"))
    }

    /// Checks each case as ``expectRejected(_:scratch:mentions:sourceLocation:)`` does.
    static func expectEachRejected(
        _ cases: [(arguments: [String], mentions: String)], scratch: Scratch,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (arguments, mentions) in cases {
            Self.expectRejected(arguments, scratch: scratch, mentions: mentions, sourceLocation: sourceLocation)
        }
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
            (
                ["render", "--frames", "10", "--frame-range", "5-20", "-o", scratch.file("f%03d.png")],
                "goes past the last frame, 9"
            ),
            (
                ["render", "--size", "321x180", "--frames", "2", "-o", scratch.file("x.mp4")],
                "even width and height, but the size is 321x180; use 322x180"
            ),
            (
                ["render", "--colors", "red,,blue", "-o", scratch.file("x.png")],
                "--colors: \"red,,blue\" has an empty entry"
            ),
            // Negative numbers reach the flag's own check instead of reading as flags.
            (["render", "--size", "-5x10", "-o", scratch.file("x.png")], "--size: -5x10 is not a usable size"),
            (["render", "--duration", "-1", "-o", scratch.file("x.mp4")], "--duration: -1 is outside the allowed"),
            (
                ["render", "--frame-range", "-3", "-o", scratch.file("f%03d.png")],
                "--frame-range: \"-3\" is not a range"
            ),
            // As long as --duration allows, whatever the frame rate
            // (a larger count once crashed converting the length).
            (
                ["render", "--frames", "9223372036854775807", "--fps", "30", "-o", scratch.file("f%03d.png")],
                "--frames: 9223372036854775807 frames at 30 fps last longer than 86400 s, the longest render; "
                    + "give at most 2592000"
            ),
        ]
        Self.expectEachRejected(cases, scratch: scratch)
    }

    /// A number its option's type cannot hold says why.
    @Test func numbersTheirOptionsCannotHold() {
        let scratch = Scratch()
        let cases: [(arguments: [String], mentions: String)] = [
            (
                ["render", "--seed", "-1", "-o", scratch.file("x.png")],
                "--seed: '-1' cannot be negative (see `fluidgradient render --help`)"
            ),
            (
                ["render", "--seed", "99999999999999999999", "-o", scratch.file("x.png")],
                "--seed: '99999999999999999999' is too large"
            ),
            (["render", "--frames", "2.5", "-o", scratch.file("x.mp4")], "--frames: '2.5' is not a whole number"),
            (
                ["render", "--frames", "-99999999999999999999", "-o", scratch.file("x.mp4")],
                "--frames: '-99999999999999999999' is out of range"
            ),
            (["render", "--speed", "fast", "-o", scratch.file("x.png")], "--speed: 'fast' is not a number"),
            (["bench", "--blobs", "ten"], "--blobs: 'ten' is not a number (see `fluidgradient bench --help`)"),
            (
                ["palette", scratch.file("x.png"), "-n", "x"],
                "-n: 'x' is not a number (see `fluidgradient palette --help`)"
            ),
            (["batch", scratch.file("m.json"), "--jobs", "-1"], "--jobs must be 1 to 64, not -1"),
            (
                ["batch", scratch.file("m.json"), "--jobs", "--force"],
                "--jobs: '--force' is the next option; give a value first"
            ),
        ]
        Self.expectEachRejected(cases, scratch: scratch)
    }

    /// Missing values, stray words, odd paths and unknown commands each get their own one-line error.
    @Test func missingValuesStrayWordsAndUnknownCommands() {
        let scratch = Scratch()
        let cases: [(arguments: [String], mentions: String)] = [
            // A missing value is named at its option, not as a stray argument after it.
            (
                ["render", "--size", "--fps", "30", "-o", scratch.file("x.png")],
                "--size: '--fps' is the next option; give a value first (see"
            ),
            (
                ["render", "--opacity", "--seed", "3", "-o", scratch.file("x.png")],
                "--opacity: '--seed' is the next option"
            ),
            (
                ["render", "--seed", "9007199254740992", "-o", scratch.file("x.png")],
                "--seed: 9007199254740992 is outside the allowed 0...9007199254740991"
            ),
            (
                ["render", "--ffmpeg-options", "--fps", "30", "-o", scratch.file("x.mp4")],
                "--ffmpeg-options: '--fps' is the next option"
            ),
            (
                ["render", "--ffmpeg-options", "-crf", "23", "-o", scratch.file("x.mp4")],
                "--ffmpeg-options takes one value, '-crf', so '23' was left over: "
                    + "quote all the ffmpeg options together, as in --ffmpeg-options \"-crf 23\" "
                    + "(see `fluidgradient render --help`)"
            ),
            (["render", "--ffmpeg-options=-crf", "23", "-o", scratch.file("x.mp4")], "'23' was left over"),
            // A quoted value with a stray word after it is some other mistake.
            (["render", "--ffmpeg-options", "-crf 23", "30", "-o", scratch.file("x.mp4")], "Unexpected argument '30'"),
            // A line break in a path stays on the error's one line.
            (["render", "-o", scratch.file("no\ndir/x.png")], "no\\ndir/x.png: the directory"),
            (["render", "-o", scratch.file("no\u{202E}dir/x.png")], "no\\u{202E}dir/x.png: the directory"),
            (["rendr", "-o", scratch.file("x.png")], "unknown command 'rendr' (did you mean 'render'?)"),
            (
                ["presets", "lst"],
                "unknown command 'lst' (did you mean 'list'?); the commands are list, show "
                    + "(see `fluidgradient presets --help`)"
            ),
            (["help", "nope"], "unknown command 'nope'; the commands are render, "),
            (["help", "presets", "shw"], "unknown command 'shw' (did you mean 'show'?)"),
            (
                ["render"],
                "give -o OUTPUT (such as out.png or out.mp4) or --bundle DIR (see `fluidgradient render --help`)"
            ),
        ]
        Self.expectEachRejected(cases, scratch: scratch)
    }
}
