import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `--alpha auto|keep|stacked` (issue 23, contract 2): what each mode refuses, with
/// status 2, one line and no file.
@Suite struct AlphaOptionTests {
    static let transparent = ["--background", "transparent"]

    @Test(arguments: ["k.mp4", "k.gif"])
    func keepRefusesAnOutputWithoutAlpha(name: String) {
        let scratch = Scratch()
        let result = BadInputTests.expectRejected(
            ["render"] + Self.transparent + ["--size", "64x36", "--frames", "2", "--alpha", "keep"]
                + ["-o", scratch.file(name)],
            scratch: scratch, mentions: "--alpha stacked")
        for format in [".mov", ".webm", "PNG"] { #expect(result.stderr.contains(format), "\(result.stderr)") }
    }

    /// `keep` refuses an .mp4 even for an opaque frame: the flag is a promise about the
    /// file, not about one render. `stacked` needs transparency and an even height.
    @Test(arguments: [
        (["--alpha", "keep", "--size", "64x36"], "cannot keep alpha"),
        (["--alpha", "stacked", "--size", "64x36"], "no alpha to stack"),
        (["--alpha", "stacked", "--size", "64x35"] + transparent, "height must be even"),
    ])
    func refusesAnMP4(flags: [String], mentions: String) {
        let scratch = Scratch()
        BadInputTests.expectRejected(
            ["render", "--frames", "2"] + flags + ["-o", scratch.file("s.mp4")], scratch: scratch, mentions: mentions)
    }

    @Test func keepRefusesRawFramesWithoutAlpha() {
        let scratch = Scratch()
        BadInputTests.expectRejected(
            ["render", "--size", "64x36", "--time", "0", "--alpha", "keep", "--pixel-format", "rgb24", "-o", "-"],
            scratch: scratch, mentions: "--pixel-format rgba")
    }

    @Test func keepWritesAnOutputThatKeepsAlpha() {
        let scratch = Scratch()
        let result = run(
            ["render"] + Self.transparent + ["--size", "64x36", "--alpha", "keep", "-o", scratch.file("k.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.contents == ["k.png"])
    }

    @Test(arguments: ["s.webm", "s.mov", "s.gif", "s.png", "frames/%03d.png"])
    func stackedRefusesAnythingButMP4(name: String) throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("frames"), withIntermediateDirectories: true)
        BadInputTests.expectRejected(
            ["render"] + Self.transparent + ["--size", "64x36", "--frames", "2", "--alpha", "stacked"]
                + ["-o", scratch.file(name)],
            scratch: scratch, mentions: "--alpha stacked writes an .mp4")
    }
}
