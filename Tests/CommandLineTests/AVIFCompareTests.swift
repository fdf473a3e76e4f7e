import Foundation
import Testing

/// compare reading AVIF, still and image sequences, through libavif, with the alpha plane
/// that Debian's ffmpeg 5.1 drops (a still's alpha item) or hands over as a stream of its
/// own (a sequence's alpha track).
@Suite struct AVIFCompareTests {
    /// avifenc's options for a file that keeps 8-bit RGBA exactly: lossless AV1 in 4:4:4
    /// with the identity matrix, alpha lossless too, every frame a key frame (libaom's
    /// lossless inter frames, as avifenc 0.11 sets them up, moved colours by up to 2 levels).
    static let lossless = ["-l", "-s", "8", "-k", "1"]

    /// avifenc makes `output` from `frames` PNGs at 30 fps.
    static func avifenc(_ output: String, _ options: [String], frames: [String]) {
        ImageFixtures.make(output, with: "avifenc", options + ["--fps", "30"] + frames)
    }

    /// Lossless AVIF, animated and still, matches its transparent goldens exactly, so its
    /// alpha was read; opaque goldens differ from it in alpha alone.
    @Test func losslessAVIFMatchesItsGoldensWithItsAlpha() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("t%02d.png"), frames: 3, ["--background", "transparent"])
        ImageFixtures.goldens(scratch.file("o%02d.png"), frames: 3)
        let frames = (0..<3).map { scratch.file(String(format: "t%02d.png", $0)) }
        let animated = scratch.file("t.avif"), still = scratch.file("s.avif")
        Self.avifenc(animated, Self.lossless, frames: frames)
        Self.avifenc(still, Self.lossless, frames: [frames[1]])
        let exact = run(["compare", scratch.file("t%02d.png"), animated])
        #expect(
            exact.stdoutText == "match: 3 frames, 3 matching, 0 differing, 0 missing, 0 extra, 0 of another size; "
                + "mean score 100.00\n")
        #expect(run(["compare", frames[1], still]).status == 0)
        #expect(run(["compare", frames[0], still]).status == 1)
        for (goldens, avif) in [(scratch.file("o%02d.png"), animated), (scratch.file("o01.png"), still)] {
            let opaque = run(["compare", goldens, avif, "--json"])
            #expect(opaque.status == 1)
            let worst = try ImageFixtures.largest(opaque)
            #expect(!worst.isEmpty && worst.allSatisfy { $0.1 == "A" }, "\(worst)")
        }
    }

    /// A 10-bit AVIF is read at 16 bits. At quantizer 0 in 4:4:4 the only losses are the
    /// 10-bit codes and the YCbCr conversion: within half a level of the 16-bit goldens
    /// (0.45 measured), so a tolerance of 1 level; the alpha plane is 10-bit too. AVIF
    /// with premultiplied colour (avifenc -p) comes back straight.
    @Test func tenBitAndPremultipliedAVIFComeBackWithinALevel() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("d%02d.png"), frames: 2, ["--background", "transparent", "--depth", "16"])
        let frames = (0..<2).map { scratch.file(String(format: "d%02d.png", $0)) }
        let quantizerZero = ["--min", "0", "--max", "0", "--minalpha", "0", "--maxalpha", "0"]
        let tenBit = ["-s", "8", "-d", "10", "-y", "444"] + quantizerZero
        Self.avifenc(scratch.file("d.avif"), tenBit, frames: frames)
        let deep = run(["compare", scratch.file("d%02d.png"), scratch.file("d.avif"), "--json"])
        #expect(try ImageFixtures.largest(deep).allSatisfy { $0.0 > 0 && $0.0 <= 1 }, "\(deep.stdoutText)")
        Self.avifenc(scratch.file("p.avif"), tenBit + ["-p"], frames: frames)
        let premultiplied = run(["compare", scratch.file("d%02d.png"), scratch.file("p.avif"), "--tolerance", "1"])
        #expect(premultiplied.status == 0, "\(premultiplied.stdoutText)")
    }

    /// An AV1 AVIF as ffmpeg writes it (libaom, 4:2:0, BT.709 limited range, crf 20): its
    /// colours move by up to 6 levels (measured), so a tolerance of 10.
    @Test func ffmpegsLossyAVIFStaysWithinItsCodecsTolerance() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("o%02d.png"), frames: 4)
        let avif = scratch.file("o.avif")
        ImageFixtures.ffmpeg(
            avif, from: scratch.file("o%02d.png"), fps: 30,
            [
                "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p",
                "-c:v", "libaom-av1", "-crf", "20", "-cpu-used", "8",
                "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
            ])
        #expect(run(["compare", scratch.file("o%02d.png"), avif, "--tolerance", "10"]).status == 0)
        let strict = run(["compare", scratch.file("o%02d.png"), avif, "--json"])
        #expect(try ImageFixtures.largest(strict).count == 4)
        #expect(try ImageFixtures.largest(strict).allSatisfy { $0.0 >= 1 && $0.0 <= 10 }, "\(strict.stdoutText)")
    }

    /// An image sequence whose frames last 1, 2 and 1 thirtieths of a second pairs with the
    /// four frames shown at 30 fps, and is refused without --fps.
    @Test func unevenFramesPairByInstant() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("src%02d.png"), frames: 3, ["--background", "transparent"])
        let source = (0..<3).map { scratch.file(String(format: "src%02d.png", $0)) }
        for (index, frame) in [0, 1, 1, 2].enumerated() {
            let copy = scratch.file(String(format: "seq%02d.png", index))
            try FileManager.default.copyItem(atPath: source[frame], toPath: copy)
        }
        let avif = scratch.file("u.avif")
        ImageFixtures.make(
            avif, with: "avifenc",
            Self.lossless + [
                "--timescale", "30",
                "--duration", "1", source[0], "--duration", "2", source[1], "--duration", "1", source[2],
            ])
        let paired = run(["compare", scratch.file("seq%02d.png"), avif, "--fps", "30"])
        #expect(paired.status == 0, "\(paired.stdoutText)")
        #expect(paired.stdoutText.hasPrefix("match: 4 frames, 4 matching"))
        BadInputTests.expectRejected(
            ["compare", scratch.file("seq%02d.png"), avif], scratch: scratch,
            mentions: "its 3 frames last from 33.33 ms to 66.67 ms (encoders merge identical frames")
    }

    /// A truncated or foreign file is one line naming it, exit 2, nothing on stdout.
    @Test func aDamagedAVIFIsOneLineAndExitTwo() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("t%02d.png"), frames: 2, ["--background", "transparent"])
        let avif = scratch.file("t.avif")
        Self.avifenc(avif, Self.lossless, frames: [scratch.file("t00.png"), scratch.file("t01.png")])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: avif)[.size] as? Int)
        for count in [size / 3, size / 2, size - 1] {
            let cut = scratch.file("cut-\(count).avif")
            try ImageFixtures.truncate(avif, to: count, as: cut)
            BadInputTests.expectRejected(
                ["compare", scratch.file("t%02d.png"), cut], scratch: scratch, mentions: "cannot read \(cut): ")
        }
        try FileManager.default.copyItem(atPath: scratch.file("t00.png"), toPath: scratch.file("png.avif"))
        BadInputTests.expectRejected(
            ["compare", scratch.file("t00.png"), scratch.file("png.avif")], scratch: scratch,
            mentions: "cannot read \(scratch.file("png.avif")): not an AVIF image, or a damaged one (libavif: ")
    }
}
