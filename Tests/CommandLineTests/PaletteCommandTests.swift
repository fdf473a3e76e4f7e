import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Brand colours from the command line: `palette`, `--palette`, range flags and gradient backgrounds.
@Suite struct PaletteCommandTests {
    /// A 120×60 image of three flat bands: 50% #E63946, 30% #1D3557, 20% #F1FAEE.
    static func bands(in scratch: Scratch) throws -> String {
        var buffer = PixelBuffer(width: 120, height: 60, format: .rgb24)
        buffer.withUnsafeMutableBytes { bytes in
            for y in 0..<60 {
                for x in 0..<120 {
                    let color: [UInt8] =
                        x < 60 ? [0xE6, 0x39, 0x46] : x < 96 ? [0x1D, 0x35, 0x57] : [0xF1, 0xFA, 0xEE]
                    for lane in 0..<3 { bytes[(y * 120 + x) * 3 + lane] = color[lane] }
                }
            }
        }
        let path = scratch.file("bands.png")
        try PNGFile.write(buffer, to: path)
        return path
    }

    @Test func printsAnImagesColoursLargestFirst() throws {
        let scratch = Scratch()
        let image = try Self.bands(in: scratch)
        let result = run(["palette", image, "-n", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("#E63946") && lines[0].hasSuffix("50.0%"))
        #expect(lines[1].hasPrefix("#1D3557") && lines[1].hasSuffix("30.0%"))
        #expect(lines[2].hasPrefix("#F1FAEE") && lines[2].hasSuffix("20.0%"))
        #expect(run(["palette", image, "-n", "3"]).stdout == result.stdout)
        let json = run(["palette", image, "-n", "3", "--json"])
        #expect(json.stdoutText.contains(##"{ "color": "#E63946", "share": 0.5 }"##))
    }

    @Test func writesAPresetThatRenders() throws {
        let scratch = Scratch()
        let image = try Self.bands(in: scratch)
        let result = run(["palette", image, "-n", "3", "--preset-out", scratch.file("bands.json")])
        #expect(result.status == 0)
        let preset = try PresetLibrary.file(scratch.file("bands.json"))
        #expect(preset.name == "bands")
        #expect(preset.colors.map(\.hex) == ["#E63946", "#1D3557", "#F1FAEE"])
        #expect(
            run(["render", "--preset", scratch.file("bands.json"), "--size", "64x36", "-o", scratch.file("b.png")])
                .status == 0)
        // A directory given for the preset: the hint names a JSON file inside it.
        let directory = run(["palette", image, "--preset-out", scratch.path + "/"])
        #expect(directory.status == 2)
        #expect(
            directory.stderr.hasSuffix(
                "it is a directory; name a file (such as \(scratch.path)/out.json) or remove the directory\n"),
            "\(directory.stderr)")
        BadInputTests.expectRejected(
            ["palette", image, "--preset-out", ""], scratch: scratch,
            mentions: "the output path is empty; name a file such as out.json")
        BadInputTests.expectRejected(
            ["palette", image, "--preset-out", scratch.file("new/")], scratch: scratch,
            mentions: "a path that ends in / names a directory")
    }

    @Test func itsOutputIsAPaletteFile() throws {
        let scratch = Scratch()
        let image = try Self.bands(in: scratch)
        let printed = run(["palette", image, "-n", "3"])
        let json = run(["palette", image, "-n", "3", "--json"])
        try printed.stdout.write(to: URL(fileURLWithPath: scratch.file("bands.txt")))
        try json.stdout.write(to: URL(fileURLWithPath: scratch.file("bands.json")))
        for (name, palette) in [("a", "bands.txt"), ("b", "bands.json")] {
            let result = run([
                "render", "--palette", scratch.file(palette), "--size", "64x36", "-o", scratch.file("\(name).png"),
            ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(
            run(["render", "--colors", "#E63946,#1D3557,#F1FAEE", "--size", "64x36", "-o", scratch.file("c.png")])
                .status == 0)
        let frames = try ["a", "b", "c"].map { try Data(contentsOf: URL(fileURLWithPath: scratch.file("\($0).png"))) }
        #expect(frames[0] == frames[2] && frames[1] == frames[2])
    }

    @Test func unreadableImagesAreInputErrors() throws {
        let scratch = Scratch()
        try Data("no".utf8).write(to: URL(fileURLWithPath: scratch.file("bad.png")))
        let result = run(["palette", scratch.file("bad.png")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read \(scratch.file("bad.png"))"))
        #expect(run(["palette", scratch.file("bad.png"), "-n", "0"]).status == 2)
        // Worded as the other commands word them.
        BadInputTests.expectRejected(
            ["palette", scratch.file("absent.png")], scratch: scratch,
            mentions: "cannot read \(scratch.file("absent.png")): no such file")
        BadInputTests.expectRejected(
            ["palette", scratch.path], scratch: scratch,
            mentions: "cannot read \(scratch.path): it is a directory, not a PNG image")
        BadInputTests.expectRejected(
            ["palette", scratch.file("bad.png"), "-n", "-2"], scratch: scratch, mentions: "-n")
    }

    @Test func paletteFilesSetTheBlobColours() throws {
        let scratch = Scratch()
        try Data("#FF5F6D\n#FFC371\nteal\n".utf8).write(to: URL(fileURLWithPath: scratch.file("brand.txt")))
        try Data(##"["#FF5F6D", "#FFC371", "teal"]"##.utf8).write(to: URL(fileURLWithPath: scratch.file("brand.json")))
        #expect(
            run(["render", "--palette", scratch.file("brand.txt"), "--size", "64x36", "-o", scratch.file("a.png")])
                .status == 0)
        #expect(
            run(["render", "--palette", scratch.file("brand.json"), "--size", "64x36", "-o", scratch.file("b.png")])
                .status == 0)
        #expect(
            run(["render", "--colors", "#FF5F6D,#FFC371,teal", "--size", "64x36", "-o", scratch.file("c.png")]).status
                == 0)
        let frames = try ["a", "b", "c"].map { try Data(contentsOf: URL(fileURLWithPath: scratch.file("\($0).png"))) }
        #expect(frames[0] == frames[1] && frames[1] == frames[2])
        try Data("red\nblurple\n".utf8).write(to: URL(fileURLWithPath: scratch.file("bad.txt")))
        let bad = run(["render", "--palette", scratch.file("bad.txt"), "-o", scratch.file("d.png")])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.txt:2: \"blurple\" is not a colour"))
    }

    @Test func rangeFlagsChangeTheSceneAndBadRangesAreRejected() throws {
        let scratch = Scratch()
        #expect(run(["render", "--size", "64x36", "-o", scratch.file("a.png")]).status == 0)
        #expect(
            run([
                "render", "--size", "64x36", "--blob-size", "0.05...0.1", "--opacity", "1", "-o", scratch.file("b.png"),
            ]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: scratch.file("a.png")))
                != Data(contentsOf: URL(fileURLWithPath: scratch.file("b.png"))))
        for (flag, value, message) in [
            (
                "--blob-size", "0.6...0.2",
                "--blob-size: \"0.6...0.2\" has min greater than max; expected MIN...MAX or MIN...MAX/STEP within 0...4"
            ),
            (
                "--opacity", "0.5...2",
                "--opacity: \"0.5...2\" is out of bounds; expected MIN...MAX or MIN...MAX/STEP within 0...1"
            ),
            (
                "--retarget-interval", "0...1",
                "--retarget-interval: \"0...1\" is out of bounds; "
                    + "expected MIN...MAX or MIN...MAX/STEP within 0.05...600"
            ),
            ("--blob-aspect", "wide", "--blob-aspect: \"wide\" is not a range"),
        ] {
            let result = run(["render", flag, value, "-o", scratch.file("x.png")])
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(!scratch.contents.contains("x.png"))
    }

    @Test func gradientBackgroundsFromTheCommandLine() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--size", "64x36", "--background", "linear 300 #0B1026 0, #3B1E54 0.6, #9B3675 1", "-o",
            scratch.file("g.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for bad in ["linear 300 #0B1026", "linear 300 #0B1026 0, #3B1E54", "spiral red, blue"] {
            let rejected = run(["render", "--background", bad, "-o", scratch.file("x.png")])
            #expect(rejected.status == 2)
            #expect(
                rejected.stderr.hasPrefix("fluidgradient: --background: \"\(bad)\" is not a fill"), "\(rejected.stderr)"
            )
        }
        let help = run(["render", "--help"]).stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            help.contains(
                "TYPE linear, radial or conic and SPACE srgb (the default), linear, oklab or oklch, for example "
                    + "\"linear 270 in oklab #0B1026 0, #3B1E54 0.6, #9B3675 1\""))
    }
}
