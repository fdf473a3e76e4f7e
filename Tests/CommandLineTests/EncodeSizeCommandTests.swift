import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `render --encode-size auto|full|WxH`: delivery formats are encoded at the size the blur
/// leaves and scaled up by the player; `.mov` and PNG keep the full size.
@Suite(.serialized) struct EncodeSizeCommandTests {
    /// The default preset at 640x360: σ ≈ 83 px, so `auto` halves the sides.
    static let clip = ["render", "--size", "640x360", "--frames", "3"]

    @Test func autoEncodesAnMp4SmallerAndSaysSo() {
        let scratch = Scratch()
        let result = run(Self.clip + ["--stats", "-o", scratch.file("a.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let info = probe(scratch.file("a.mp4"))
        #expect(info["width"] == "320" && info["height"] == "180" && info["nb_read_frames"] == "3")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("note: ") }
        let expected = "encoded at 320x180, for players to scale up to 640x360"
        #expect(notes.count == 1 && notes[0].contains(expected), "\(notes)")
        #expect(result.stderr.contains("rendered 3 frames of 320x180"), "\(result.stderr)")
        let quiet = run(Self.clip + ["--quiet", "-o", scratch.file("q.mp4")])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(probe(scratch.file("q.mp4"))["width"] == "320")
    }

    @Test func theProgressLineNamesTheEncodedSize() throws {
        let scratch = Scratch()
        let shown = try TerminalTests.onTerminal(Self.clip + ["-o", scratch.file("p.mp4")])
        #expect(shown.status == 0)
        #expect(shown.screen.contains("\r" + scratch.file("p.mp4") + " at 320x180 frame 3/3"), "\(shown.screen)")
    }

    @Test func eachContainerHasItsDefault() {
        let scratch = Scratch()
        for (name, width) in [("a.webm", "320"), ("a.gif", "320"), ("a.mov", "640")] {
            let result = run(Self.clip + ["-o", scratch.file(name)])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(probe(scratch.file(name))["width"] == width, "\(name)")
            #expect(result.stderr.contains("encoded at") == (width == "320"), "\(name): \(result.stderr)")
        }
    }

    @Test func fullAndAnExplicitSizeAreKept() {
        let scratch = Scratch()
        let full = run(Self.clip + ["--encode-size", "full", "-o", scratch.file("f.mp4")])
        #expect(full.status == 0 && !full.stderr.contains("note:"), "\(full.stderr)")
        #expect(probe(scratch.file("f.mp4"))["width"] == "640")
        let explicit = run(Self.clip + ["--encode-size", "160x90", "-o", scratch.file("e.webm")])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        let expected = "e.webm is encoded at 160x90, for players to scale up to 640x360 (--encode-size)"
        #expect(explicit.stderr.contains(expected), "\(explicit.stderr)")
        let info = probe(scratch.file("e.webm"))
        #expect(info["width"] == "160" && info["height"] == "90")
        let master = run(Self.clip + ["--encode-size", "auto", "-o", scratch.file("m.mov")])
        #expect(master.status == 0 && probe(scratch.file("m.mov"))["width"] == "320", "\(master.stderr)")
    }

    @Test func smallBlursKeepTheOutputSize() {
        let scratch = Scratch()
        let result = run(Self.clip + ["--blur", "0.5", "-o", scratch.file("s.mp4")])
        #expect(result.status == 0 && !result.stderr.contains("note:"), "\(result.stderr)")
        #expect(probe(scratch.file("s.mp4"))["width"] == "640")
    }

    /// The encoded frames are the full-size picture at a smaller size: decoded and scaled up
    /// as a player would, they match the full-size PNG within H.264's own loss (CRF 18,
    /// 4:2:0 chroma, 8-bit dither; measured 6.8 levels at most, PSNR 47 dB). Frames rendered
    /// at 320x180 without dividing the point scale (σ 49 px, not 41) are 16.5 levels and
    /// 33 dB away.
    @Test func theEncodedFramesScaleUpToTheFullSizePicture() throws {
        let scratch = Scratch()
        #expect(run(Self.clip + ["--encode-size", "320x180", "-o", scratch.file("a.mp4")]).status == 0)
        #expect(run(Self.clip + ["-o", scratch.file("%d.png")]).status == 0)
        let decoded = decodeFrames(scratch.file("a.mp4"), width: 320, height: 180)
        #expect(decoded.count == 3)
        for (index, frame) in decoded.enumerated() {
            let png = try PNGFile.read(scratch.file("\(index).png"))
            #expect(png.width == 640 && png.height == 360 && !png.hasTransparency)
            let full = png.samples
            let small = FrameSamples(width: 320, height: 180, channels: 3, bitDepth: 8, samples: frame.map(UInt16.init))
            let difference = FrameDifference(expected: full, upscaling: small, tolerance: 0)
            #expect(
                difference.largest <= 10 && difference.psnr > 45,
                "frame \(index): \(difference.largest) levels, \(difference.psnr) dB")
        }
    }

    @Test func refusesWhatCannotBeEncoded() {
        let scratch = Scratch()
        let cases: [(arguments: [String], mentions: String)] = [
            (
                ["--encode-size", "1280x720", "-o", scratch.file("x.mp4")],
                "--encode-size 1280x720 is larger than the output, 640x360"
            ),
            (["--encode-size", "640x400", "-o", scratch.file("x.webm")], "larger than the output, 640x360"),
            (
                ["--encode-size", "300x200", "-o", scratch.file("x.gif")],
                "--encode-size 300x200 does not keep the output's aspect ratio, 640x360; "
                    + "give a size such as 320x180, 160x90, 128x72, or auto"
            ),
            (
                ["--encode-size", "48x27", "-o", scratch.file("x.mp4")],
                "x.mp4 is 4:2:0 video, which needs an even width and height"
            ),
            (
                ["--encode-size", "320x180", "-o", scratch.file("x.png")],
                "--encode-size applies to video and animated-image outputs"
            ),
            (["--encode-size", "320x180", "-o", scratch.file("%02d.png")], "PNG and raw frames are written at --size"),
            (["--encode-size", "320x180", "-o", "-"], "--encode-size applies to video"),
            (
                ["--encode-size", "half", "-o", scratch.file("x.mp4")],
                "--encode-size: \"half\" is not auto, full or a size such as 640x360"
            ),
            (["--encode-size", "0x0", "-o", scratch.file("x.mp4")], "is not auto, full or a size"),
        ]
        for (arguments, fragment) in cases {
            _ = BadInputTests.expectRejected(Self.clip + arguments, scratch: scratch, mentions: fragment)
        }
        // An odd size is fine where the encoder takes it.
        #expect(run(Self.clip + ["--encode-size", "48x27", "-o", scratch.file("odd.webm")]).status == 0)
        #expect(probe(scratch.file("odd.webm"))["height"] == "27")
    }
}
