import Foundation
import Testing

/// compare reading the stacked-alpha layout (W x 2H: colour premultiplied by alpha on
/// top, alpha as grey below), with files ffmpeg stacks from the project's goldens.
@Suite struct StackedAlphaCompareTests {
    /// Stacks 16-bit RGBA frames: premultiplies them, extracts the alpha as grey, and puts
    /// the colour above the alpha, in gbrp16le (`codec` may convert further).
    static let stack =
        "[0]format=gbrap16le,split[c][a];[c]premultiply=inplace=1,format=gbrp16le[top];"
        + "[a]alphaextract,format=gray16le,format=gbrp16le[bottom];[top][bottom]vstack"
    static let tag = ["-metadata", "comment=fluidgradient-layout=stacked-alpha"]

    /// Goldens with an alpha that varies (0.53 to 0.83 here), 16-bit, at 64x36.
    static func goldens(_ scratch: Scratch) -> String {
        let pattern = scratch.file("g%02d.png")
        let translucent = ["--background", "transparent", "--opacity", "0.2...0.5", "--depth", "16"]
        ImageFixtures.goldens(pattern, frames: 3, translucent)
        return pattern
    }

    /// ffmpeg stacks `goldens` into `output` with `codec` after the stacking filter.
    static func stacked(_ output: String, from goldens: String, _ codec: [String], filter: String = "") {
        ImageFixtures.ffmpeg(output, from: goldens, fps: 30, ["-filter_complex", stack + filter] + codec)
    }

    /// A lossless 16-bit stacked file recombines to its goldens within 0.1 level (0.08
    /// measured: ffmpeg's 16-bit premultiply divides by 65536); the tag decides, and
    /// --layout overrides it either way.
    @Test func losslessStackedFramesRecombineToTheirGoldens() {
        let scratch = Scratch()
        let goldens = Self.goldens(scratch)
        let tagged = scratch.file("tagged.mkv"), untagged = scratch.file("untagged.mkv")
        Self.stacked(tagged, from: goldens, ["-c:v", "ffv1"] + Self.tag)
        Self.stacked(untagged, from: goldens, ["-c:v", "ffv1"])
        for arguments in [[tagged], [untagged, "--layout", "stacked"], [tagged, "--layout", "auto"]] {
            let result = run(["compare", goldens] + arguments + ["--tolerance", "0.1"])
            #expect(result.status == 0, "\(arguments): \(result.stdoutText)")
            #expect(result.stdoutText.hasPrefix("match: 3 frames, 3 matching"), "\(result.stdoutText)")
        }
        for arguments in [[untagged], [tagged, "--layout", "plain"]] {
            let result = run(["compare", goldens] + arguments)
            let sizes = "g00.png differs in size: 64x36 expected, 64x72 actual"
            #expect(result.stdoutText.hasPrefix(sizes), "\(arguments): \(result.stdoutText)")
        }
    }

    /// H.264 in yuv420p, BT.709, crf 18, as render writes a stacked .mp4: every pixel over
    /// 6 levels lies in the three colour rows above the seam (4.5% of the frame measured),
    /// where a macroblock and the 4:2:0 chroma span both halves.
    @Test func anH264StackedFileStaysWithinItsCodecsTolerance() throws {
        let scratch = Scratch()
        let goldens = Self.goldens(scratch)
        let mp4 = scratch.file("s.mp4")
        let yuv = ",scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p"
        let h264 = [
            "-c:v", "libx264", "-crf", "18", "-colorspace", "bt709", "-color_primaries", "bt709",
            "-color_trc", "bt709",
        ]
        Self.stacked(mp4, from: goldens, h264 + Self.tag, filter: yuv)
        let result = run(["compare", goldens, mp4, "--tolerance", "6", "--max-differing", "5%"])
        #expect(result.status == 0, "\(result.stdoutText)")
        let strict = run(["compare", goldens, mp4, "--json"])
        #expect(try ImageFixtures.largest(strict).count == 3)
    }

    /// The top half is clamped to the alpha and divided by it; where the alpha is 0
    /// nothing shows. A grey 0x80 over alpha 0 (left) and 0x40 (right) is transparent on
    /// the left and white at alpha 0x40 on the right.
    @Test func colourIsClampedToItsAlpha() {
        let scratch = Scratch()
        let stacked = scratch.file("clamp.mkv"), golden = scratch.file("clamp.png")
        let halves =
            "color=0x808080:s=8x4,format=gbrp[top];color=black:s=4x4[l];color=0x404040:s=4x4[r];"
            + "[l][r]hstack,format=gbrp[bottom];[top][bottom]vstack"
        ImageFixtures.make(
            stacked, with: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "nullsrc=s=8x8:d=0.1",
                "-filter_complex", halves, "-frames:v", "1", "-c:v", "ffv1",
            ] + Self.tag)
        let left = "color=0xFFFFFF00:s=4x4,format=rgba[l];color=0xFFFFFF40:s=4x4,format=rgba[r];[l][r]hstack"
        ImageFixtures.make(
            golden, with: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "nullsrc=s=8x4:d=0.1",
                "-filter_complex", left, "-frames:v", "1",
            ])
        let result = run(["compare", golden, stacked])
        #expect(result.status == 0, "\(result.stdoutText)")
    }

    /// Stacked frames of odd height and --layout without a video are refused: one line,
    /// exit 2.
    @Test func refusals() {
        let scratch = Scratch()
        let odd = scratch.file("odd.mkv")
        // The colour source rounds its size to even numbers: 8x7 is cropped from 8x8.
        ImageFixtures.make(
            odd, with: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i",
                "color=gray:s=8x8:d=0.1,crop=8:7:0:0,format=gbrp", "-frames:v", "1", "-c:v", "ffv1",
            ])
        ImageFixtures.goldens(scratch.file("g%02d.png"), frames: 1)
        BadInputTests.expectRejected(
            ["compare", scratch.file("g00.png"), odd, "--layout", "stacked"], scratch: scratch,
            mentions: "cannot read \(odd) as stacked alpha: its frames are 8x7, and an odd height cannot hold")
        BadInputTests.expectRejected(
            ["compare", scratch.file("g00.png"), scratch.file("g%02d.png"), "--layout", "plain"], scratch: scratch,
            mentions: "--layout applies to videos, and neither")
    }
}
