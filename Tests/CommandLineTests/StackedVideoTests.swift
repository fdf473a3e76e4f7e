import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `--alpha stacked` through the real ffmpeg: the file's shape and tag.
@Suite(.serialized) struct StackedVideoTests {
    @Test func theFileIsTwiceAsTallAndTaggedAsStacked() {
        let scratch = Scratch()
        let result = run(
            ["render", "--background", "transparent", "--size", "160x90", "--frames", "6", "--alpha", "stacked",
             "-o", scratch.file("s.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no note: the stacked file keeps the alpha")
        let info = probe(scratch.file("s.mp4"))
        #expect(info["codec_name"] == "h264" && info["pix_fmt"] == "yuv420p")
        #expect(info["width"] == "160" && info["height"] == "180")
        #expect(info["nb_read_frames"] == "6")
        #expect(info["color_space"] == "bt709" && info["color_range"] == "tv")
        let tags = toolOutput(
            ["ffprobe", "-v", "error", "-show_entries", "format_tags=comment", "-of", "default=noprint_wrappers=1",
             scratch.file("s.mp4")])
        #expect(String(decoding: tags, as: UTF8.self) == "TAG:comment=\(StackedAlpha.layoutComment)\n")
    }
}
