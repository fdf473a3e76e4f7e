import Foundation
import Testing

/// compare --scale bilinear: an actual frame smaller than its golden, of the same aspect
/// ratio, is scaled up to the golden's size before the comparison.
@Suite struct ScaledCompareTests {
    /// compare's upscale is ffmpeg's `scale=flags=bilinear` to within 0.2 level (0.08
    /// measured here; swscale's weights are fixed-point), and says so in the report.
    @Test func theUpscaleIsFFmpegsBilinear() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("small.png"), frames: 1, ["--size", "32x18", "--depth", "16"])
        let upscaled = scratch.file("ffmpeg.png")
        ImageFixtures.make(
            upscaled, with: "ffmpeg",
            [
                "-v", "error", "-i", scratch.file("small.png"),
                "-vf", "scale=64:36:flags=bilinear", "-pix_fmt", "rgb48be",
            ])
        let result = run([
            "compare", upscaled, scratch.file("small.png"), "--scale", "bilinear", "--tolerance", "0.2",
            "--json",
        ])
        #expect(result.status == 0, "\(result.stdoutText)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])
        #expect(frames.first?["upscaledFrom"] as? String == "32x18")
        let note = "\(scratch.file("small.png")): 1 frame scaled up bilinearly from 32x18 to the expected size"
        #expect((report["notes"] as? [String])?.first?.hasPrefix(note) == true, "\(report)")
        let unscaled = run(["compare", upscaled, scratch.file("small.png")])
        #expect(unscaled.stdoutText.hasPrefix("ffmpeg.png differs in size: 64x36 expected, 32x18 actual"))
    }

    /// A render at half the size with half the point scale (the same look), compared with
    /// the full-size goldens as a player would show it: within 4 levels as 16-bit PNGs and
    /// 5 as a lossless (8-bit) WebP (3.62 and 4.44 measured, at the frames' corners, where
    /// a 32x18 frame's edge pixels are repeated).
    @Test func aReducedRenderComparesAtItsDisplaySize() throws {
        let scratch = Scratch()
        let still = ["--dither", "off", "--depth", "16", "--fps", "30"]
        ImageFixtures.goldens(scratch.file("full%02d.png"), frames: 3, still)
        let half = scratch.file("half%02d.png"), webp = scratch.file("half.webp")
        ImageFixtures.goldens(half, frames: 3, still + ["--size", "32x18", "--point-scale", "0.5"])
        ImageFixtures.ffmpeg(webp, from: half, fps: 30, ["-c:v", "libwebp_anim", "-lossless", "1"])
        for (actual, tolerance) in [(half, "4"), (webp, "5")] {
            let scaled = ["--scale", "bilinear", "--tolerance", tolerance]
            let result = run(["compare", scratch.file("full%02d.png"), actual] + scaled)
            #expect(result.status == 0, "\(result.stdoutText)")
            #expect(result.stdoutText.hasPrefix("note: \(actual): 3 frames scaled up bilinearly from 32x18"))
        }
    }

    /// Only a smaller frame of the same aspect ratio is scaled: another aspect, or a larger
    /// frame, stays a size mismatch.
    @Test func otherSizesStayMismatches() {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("golden.png"), frames: 1)
        for size in ["32x20", "128x72", "64x18"] {
            let other = scratch.file("\(size).png")
            ImageFixtures.goldens(other, frames: 1, ["--size", size])
            let result = run(["compare", scratch.file("golden.png"), other, "--scale", "bilinear"])
            let mismatch = "golden.png differs in size: 64x36 expected, \(size) actual"
            #expect(result.stdoutText.hasPrefix(mismatch), "\(size): \(result.stdoutText)")
        }
    }
}
