import FluidGradient
import Foundation
import Testing

/// compare reading still and animated WebP through libwebp, against goldens the project
/// renders, encoded by ffmpeg's libwebp_anim.
@Suite struct WebPCompareTests {
    static let lossless = ["-c:v", "libwebp_anim", "-lossless", "1"]

    /// The report of `count` frames that all match.
    static func allMatch(_ count: Int) -> String {
        "match: \(count) frames, \(count) matching, 0 differing, 0 missing, 0 extra, 0 of another size; "
            + "mean score 100.00\n"
    }

    /// Lossless WebP keeps 8-bit RGBA exactly, so the frames match with no tolerance, alpha
    /// included: opaque goldens differ from it in alpha alone.
    @Test func losslessWebPMatchesItsGoldensExactly() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("t%02d.png"), frames: 6, ["--background", "transparent"])
        ImageFixtures.goldens(scratch.file("o%02d.png"), frames: 6)
        let webp = scratch.file("t.webp")
        ImageFixtures.ffmpeg(webp, from: scratch.file("t%02d.png"), fps: 30, Self.lossless)
        let exact = run(["compare", scratch.file("t%02d.png"), webp])
        #expect(exact.status == 0, "\(exact.stdoutText)")
        #expect(exact.stdoutText == Self.allMatch(6))
        let opaque = run(["compare", scratch.file("o%02d.png"), webp, "--json"])
        #expect(opaque.status == 1)
        let worst = try ImageFixtures.largest(opaque)
        #expect(worst.count == 6 && worst.allSatisfy { $0.1 == "A" }, "\(worst)")
        // A still WebP.
        let still = ["-c:v", "libwebp", "-lossless", "1"]
        ImageFixtures.ffmpeg(scratch.file("s.webp"), from: scratch.file("t03.png"), fps: 30, still)
        #expect(run(["compare", scratch.file("t03.png"), scratch.file("s.webp")]).status == 0)
        #expect(run(["compare", scratch.file("t02.png"), scratch.file("s.webp")]).status == 1)
    }

    /// Lossy WebP (VP8, 4:2:0) at quality 90 moves these frames' colours by up to 7 levels
    /// (measured); a tolerance of 10 accepts that and still catches a wrong frame.
    @Test func lossyWebPStaysWithinItsCodecsTolerance() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("t%02d.png"), frames: 4, ["--background", "transparent"])
        let webp = scratch.file("q.webp")
        ImageFixtures.ffmpeg(
            webp, from: scratch.file("t%02d.png"), fps: 30, ["-c:v", "libwebp_anim", "-quality", "90"])
        let loose = run(["compare", scratch.file("t%02d.png"), webp, "--tolerance", "10"])
        #expect(loose.status == 0, "\(loose.stdoutText)")
        let strict = run(["compare", scratch.file("t%02d.png"), webp, "--json"])
        #expect(strict.status == 1)
        #expect(try ImageFixtures.largest(strict).allSatisfy { $0.0 >= 1 && $0.0 <= 10 })
    }

    /// libwebp merges identical consecutive frames into one longer frame, and WebP rounds
    /// times to milliseconds. With --fps, frame k is what shows at (k + 1/2)/fps, so each
    /// golden pairs with its own frame whatever the merging; without it, uneven durations
    /// are refused rather than guessed. Seeded: frame rates, counts and repeats vary.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func framesPairWithWhatShowsAtTheirInstant(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let fps = [10.0, 24, 25, 30, 50, 60][Int(random.next() % 6)]
        let distinct = 3 + Int(random.next() % 4)
        let repeats = (0..<distinct).map { _ in 1 + Int(random.next() % 3) }
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("src%02d.png"), frames: distinct, ["--fps", String(fps)])
        // The sequence as shown: frame k of the source, repeats[k] times over.
        var shown = 0
        for (frame, count) in repeats.enumerated() {
            for _ in 0..<count {
                let source = scratch.file(String(format: "src%02d.png", frame))
                let copy = scratch.file(String(format: "seq%03d.png", shown))
                try FileManager.default.copyItem(atPath: source, toPath: copy)
                shown += 1
            }
        }
        let webp = scratch.file("m.webp")
        ImageFixtures.ffmpeg(webp, from: scratch.file("seq%03d.png"), fps: fps, Self.lossless)
        let paired = run(["compare", scratch.file("seq%03d.png"), webp, "--fps", String(fps)])
        #expect(paired.status == 0, "fps \(fps), repeats \(repeats): \(paired.stdoutText)")
        #expect(paired.stdoutText.hasPrefix("match: \(shown) frames, \(shown) matching"), "\(paired.stdoutText)")
        // These seeds all draw uneven repeats (losslessWebPMatchesItsGoldensExactly has even ones).
        #expect(Set(repeats).count > 1)
        let own = run(["compare", scratch.file("seq%03d.png"), webp])
        #expect(own.status == 2)
        let refusal =
            "fluidgradient: cannot pair the frames of \(webp) with frames at a fixed rate: "
            + "its \(distinct) frames last from "
        #expect(own.stderr.hasPrefix(refusal), "\(own.stderr)")
        #expect(own.stderr.hasSuffix("give --fps, the rate it was rendered at\n"), "\(own.stderr)")
    }

    /// A still image shows at every instant, so it stands for each frame of the other side;
    /// libwebp writes a still when every frame is the same.
    @Test func aStillImageStandsForEveryFrame() {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("%02d.png"), frames: 5, ["--speed", "0", "--dither", "off"])
        let webp = scratch.file("still.webp")
        ImageFixtures.ffmpeg(webp, from: scratch.file("%02d.png"), fps: 30, Self.lossless)
        let goldens = scratch.file("%02d.png")
        for arguments in [[goldens, webp], [webp, goldens], [goldens, webp, "--fps", "30"]] {
            let result = run(["compare"] + arguments)
            #expect(result.stdoutText == Self.allMatch(5))
        }
        #expect(run(["compare", webp, webp]).stdoutText.hasPrefix("match: 1 frame, 1 matching"))
        // Frames are named after the side that has them, not the still.
        let other = ["--speed", "0", "--dither", "off", "--seed", "3"]
        ImageFixtures.goldens(scratch.file("other%02d.png"), frames: 2, other)
        let named = run(["compare", webp, scratch.file("other%02d.png")])
        #expect(named.stdoutText.hasPrefix("other00.png differs: "), "\(named.stdoutText)")
        #expect(named.stdoutText.contains("\nother01.png differs: "), "\(named.stdoutText)")
    }

    /// Missing frames against an animated image get a note on --fps; --fps is refused where
    /// there is no animated image and outside 1...240.
    @Test func frameRateNotesAndRefusals() {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("%02d.png"), frames: 6, ["--fps", "30"])
        let webp = scratch.file("a.webp")
        ImageFixtures.ffmpeg(webp, from: scratch.file("%02d.png"), fps: 30, Self.lossless)
        let slow = run(["compare", scratch.file("%02d.png"), webp, "--fps", "15"])
        #expect(slow.status == 1)
        let note = "\nnote: the frames of \(webp) are taken at --fps, else at its own rate"
        #expect(slow.stdoutText.contains(note), "\(slow.stdoutText)")
        BadInputTests.expectRejected(
            ["compare", scratch.file("%02d.png"), scratch.file("00.png"), "--fps", "30"], scratch: scratch,
            mentions: "--fps applies to animated images (.webp")
        BadInputTests.expectRejected(
            ["compare", scratch.file("%02d.png"), webp, "--fps", "0"], scratch: scratch,
            mentions: "--fps must be 1 to 240 frames per second, not 0")
    }

    /// A truncated or foreign file is one line naming it, exit 2, nothing on stdout.
    @Test func aDamagedWebPIsOneLineAndExitTwo() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("%02d.png"), frames: 3)
        let webp = scratch.file("a.webp")
        ImageFixtures.ffmpeg(webp, from: scratch.file("%02d.png"), fps: 30, Self.lossless)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: webp)[.size] as? Int)
        for count in [11, 20, 300, size / 2, size - 1] {
            let cut = scratch.file("cut-\(count).webp")
            try ImageFixtures.truncate(webp, to: count, as: cut)
            BadInputTests.expectRejected(
                ["compare", scratch.file("%02d.png"), cut], scratch: scratch,
                mentions: "cannot read \(cut): the file ends early: it is truncated or damaged")
        }
        try FileManager.default.copyItem(atPath: scratch.file("00.png"), toPath: scratch.file("png.webp"))
        try ImageFixtures.truncate(webp, to: 0, as: scratch.file("empty.webp"))
        for name in ["png.webp", "empty.webp"] {
            BadInputTests.expectRejected(
                ["compare", scratch.file("%02d.png"), scratch.file(name)], scratch: scratch,
                mentions: "cannot read \(scratch.file(name)): not a WebP image, or a damaged one")
        }
    }
}
