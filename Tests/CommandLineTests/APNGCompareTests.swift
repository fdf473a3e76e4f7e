import Foundation
import Testing

/// compare reading animated PNG, decoded by ffmpeg, with each frame's delay.
@Suite struct APNGCompareTests {
    /// APNG keeps 8- and 16-bit RGBA exactly, so frames match their goldens with no
    /// tolerance, alpha included: opaque goldens differ from them in alpha alone.
    @Test(arguments: [8, 16])
    func apngMatchesItsGoldensExactly(depth: Int) throws {
        let scratch = Scratch()
        let transparent = ["--background", "transparent", "--depth", String(depth), "--fps", "30"]
        ImageFixtures.goldens(scratch.file("t%02d.png"), frames: 5, transparent)
        let apng = scratch.file("t.apng")
        ImageFixtures.ffmpeg(apng, from: scratch.file("t%02d.png"), fps: 30, ["-plays", "0"])
        let exact = run(["compare", scratch.file("t%02d.png"), apng])
        #expect(
            exact.stdoutText == "match: 5 frames, 5 matching, 0 differing, 0 missing, 0 extra, 0 of another size; "
                + "mean score 100.00\n")
        ImageFixtures.goldens(scratch.file("o%02d.png"), frames: 5, ["--depth", String(depth), "--fps", "30"])
        let opaque = run(["compare", scratch.file("o%02d.png"), apng, "--json"])
        #expect(opaque.status == 1)
        let worst = try ImageFixtures.largest(opaque)
        #expect(worst.count == 5 && worst.allSatisfy { $0.1 == "A" }, "\(worst)")
    }

    /// Frames whose delays are 1, 2, 1 and 1 thirtieths of a second pair with the five
    /// frames shown at 30 fps, and are refused without --fps. (ffmpeg's APNG muxer gives
    /// the last frame the delay of the one before it.)
    @Test func unevenDelaysPairByInstant() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("src%02d.png"), frames: 4, ["--background", "transparent"])
        for (index, frame) in [0, 1, 1, 2, 3].enumerated() {
            let copy = scratch.file(String(format: "seq%02d.png", index))
            try FileManager.default.copyItem(atPath: scratch.file(String(format: "src%02d.png", frame)), toPath: copy)
        }
        let apng = scratch.file("u.apng")
        // Drops shown frame 2 and keeps the others' times, so frame 1 lasts two intervals.
        let merge = "select='not(eq(n\\,2))',setpts='(N+gte(N\\,2))/(30*TB)'"
        let options = ["-vf", merge, "-vsync", "vfr", "-plays", "0"]
        ImageFixtures.ffmpeg(apng, from: scratch.file("seq%02d.png"), fps: 30, options)
        let paired = run(["compare", scratch.file("seq%02d.png"), apng, "--fps", "30"])
        #expect(paired.status == 0, "\(paired.stdoutText)")
        #expect(paired.stdoutText.hasPrefix("match: 5 frames, 5 matching"), "\(paired.stdoutText)")
        BadInputTests.expectRejected(
            ["compare", scratch.file("seq%02d.png"), apng], scratch: scratch,
            mentions: "its 4 frames last from 33.33 ms to 66.67 ms")
    }

    /// A truncated APNG is one line naming it, exit 2, nothing on stdout.
    @Test func aDamagedAPNGIsOneLineAndExitTwo() throws {
        let scratch = Scratch()
        ImageFixtures.goldens(scratch.file("%02d.png"), frames: 3)
        let apng = scratch.file("a.apng")
        ImageFixtures.ffmpeg(apng, from: scratch.file("%02d.png"), fps: 30, ["-plays", "0"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: apng)[.size] as? Int)
        for count in [0, 40, size / 2] {
            let cut = scratch.file("cut-\(count).apng")
            try ImageFixtures.truncate(apng, to: count, as: cut)
            BadInputTests.expectRejected(
                ["compare", scratch.file("%02d.png"), cut], scratch: scratch, mentions: "cannot read \(cut): ")
        }
    }
}
