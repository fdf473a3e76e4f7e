import Foundation
import Testing

/// GIF through the real ffmpeg binary: its palette, its delays in hundredths of a second,
/// the frames it keeps above 50 fps, and comparing it with its frames.
@Suite(.serialized) struct GIFTests {
    /// A GIF above 50 fps gets a note.
    @Test func thinnedGIFsAreNoted() {
        let scratch = Scratch()
        let gif = run(["render", "--size", "64x36", "--frames", "4", "--fps", "60", "-o", scratch.file("g.gif")])
        #expect(
            gif.stderr
                == "fluidgradient: note: GIF delays are whole hundredths of a second, "
                + "so \(scratch.file("g.gif")) keeps every 2nd frame (30 fps), lasting as long to the hundredth\n"
        )
    }

    /// Above 50 fps a GIF keeps every k-th frame, so it pairs with its goldens by position
    /// only up to its own frames; the report says why the rest are missing.
    @Test func comparingAThinnedGIFSaysWhyFramesAreMissing() {
        let scratch = Scratch()
        let clip = ["render", "--preset", "citrus", "--size", "64x36", "--frames", "10", "--fps", "60"]
        #expect(run(clip + ["-o", scratch.file("%02d.png")]).status == 0)
        #expect(run(clip + ["-o", scratch.file("c.gif")]).status == 0)
        let result = run(["compare", scratch.file("%02d.png"), scratch.file("c.gif"), "--tolerance", "255"])
        #expect(result.status == 1)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(
            lines.filter { $0.hasSuffix("is missing from \(scratch.file("c.gif"))") }.count == 5, "\(result.stdoutText)"
        )
        let note =
            "note: if \(scratch.file("c.gif")) was rendered above 50 fps, "
            + "it keeps only every 2nd (or k-th) frame, as GIF delays are whole hundredths of a second; "
            + "compare it with frames rendered at its own rate, 50 fps or less"
        #expect(lines.dropLast().last.map(String.init) == note)
        #expect(
            lines.last?.hasPrefix("differ: 10 frames, 5 matching, 0 differing, 5 missing") == true,
            "\(result.stdoutText)")
        let json = run(["compare", scratch.file("%02d.png"), scratch.file("c.gif"), "--tolerance", "255", "--json"])
        #expect(
            json.stdoutText.contains(#""notes": ["if \#(scratch.file("c.gif")) was rendered above 50 fps"#),
            "\(json.stdoutText)")
    }

    /// A GIF's 8-bit colours reach compare exactly: swscale's widening to 16 bits was off
    /// by about a level. ffmpeg's own PNGs of its frames are the goldens.
    @Test func gifFramesCompareExactlyWithTheirOwnPNGs() {
        let scratch = Scratch()
        let render = ["render", "--preset", "citrus", "--size", "64x36", "--frames", "4", "--fps", "25"]
        #expect(run(render + ["-o", scratch.file("c.gif")]).status == 0)
        _ = toolOutput(["ffmpeg", "-v", "error", "-i", scratch.file("c.gif"), scratch.file("%02d.png")])
        let result = run(["compare", scratch.file("%02d.png"), scratch.file("c.gif")])
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(result.stdoutText.hasPrefix("match: 4 frames, 4 matching"), "\(result.stdoutText)")
    }

    /// GIF stores delays in 1/100 s, so 50 fps is exact.
    @Test func gifIsPaletteOptimised() {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "citrus", "--size", "160x90", "--duration", "2", "--fps", "50", "-o",
            scratch.file("c.gif"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = probe(scratch.file("c.gif"))
        #expect(info["codec_name"] == "gif")
        #expect(info["nb_read_frames"] == "100")
        #expect(abs((Double(info["duration"] ?? "") ?? 0) - 2.0) < 0.02)
    }

    /// A GIF lasts exactly as long as its frames, to the hundredth of a second it counts
    /// in: at 30 fps its delays alternate (3, 4, 3, …/100 s), and ffmpeg on its own gave
    /// the last frame 4, so a 1 s loop lasted 1.01 s. Browsers slow delays under 2/100 s
    /// to 10/100 s, so above 50 fps a GIF keeps every 2nd (or k-th) frame, from the
    /// first; the last one kept is shown until the end, and for at least 2/100 s.
    @Test(arguments: [
        (30.0, 30, 30, "1.000000"), (24, 24, 24, "1.000000"), (60, 60, 30, "1.000000"), (60, 61, 31, "1.020000"),
        (120, 121, 41, "1.020000"), (120, 1, 1, "0.020000"), (150, 4, 2, "0.040000"),
    ])
    func gifLastsAsLongAsItsFrames(fps: Double, frames: Int, kept: Int, probed: String) {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "citrus", "--size", "64x36", "--frames", String(frames), "--fps", String(fps), "-o",
            scratch.file("c.gif"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = probe(scratch.file("c.gif"))
        #expect(info["nb_read_frames"] == String(kept))
        #expect(info["duration"] == probed, "\(info)")
    }
}
