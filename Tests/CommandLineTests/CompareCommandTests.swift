import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// `fluidgradient compare`: verdicts, reports, diff strips and exit statuses.
@Suite struct CompareCommandTests {
    /// A 40×20 frame; `change` alters one pixel's green by `by` levels.
    static func frame(change: (x: Int, y: Int, by: Int)? = nil, depth: Int = 8, alpha: Bool = false, width: Int = 40)
        -> PixelBuffer
    {
        let format = PixelFormat.packed(depth: depth, alpha: alpha)
        var buffer = PixelBuffer(width: width, height: 20, format: format)
        let channels = alpha ? 4 : 3
        buffer.withUnsafeMutableBytes { bytes in
            for y in 0..<20 {
                for x in 0..<width {
                    for lane in 0..<channels {
                        var value = lane == 3 ? 255 : (x * 5 + y * 3 + lane * 40) % 240 + 8
                        if let change, change.x == x, change.y == y, lane == 1 { value += change.by }
                        if depth == 16 {
                            let wide = value * 257
                            bytes[((y * width + x) * channels + lane) * 2] = UInt8(wide & 0xFF)
                            bytes[((y * width + x) * channels + lane) * 2 + 1] = UInt8(wide >> 8)
                        } else {
                            bytes[(y * width + x) * channels + lane] = UInt8(value)
                        }
                    }
                }
            }
        }
        return buffer
    }

    static func write(_ buffer: PixelBuffer, _ path: String) throws {
        try PNGFile.write(buffer, to: path)
    }

    @Test func identicalFramesMatch() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("a.png"))
        try Self.write(Self.frame(), scratch.file("b.png"))
        let result = run(["compare", scratch.file("a.png"), scratch.file("b.png")])
        #expect(result.status == 0)
        #expect(
            result.stdoutText
                == "match: 1 frame, 1 matching, 0 differing, 0 missing, 0 extra, 0 of another size; mean score 100.00\n"
        )
    }

    /// A --diff directory that cannot be written is refused before comparing, and a strip
    /// that cannot be written (here, past a file-size limit) is said in the report.
    @Test func diffStripsThatCannotBeWrittenAreReported() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("a.png"))
        try Self.write(Self.frame(change: (7, 3, 40)), scratch.file("b.png"))
        #expect(mkdir(scratch.file("ro"), 0o555) == 0)
        defer { chmod(scratch.file("ro"), 0o755) }
        let refused = run(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("ro")],
            launcher: unprivilegedLauncher)
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "fluidgradient: cannot write into the --diff directory \(scratch.file("ro")): Permission denied; "
                + "give --diff a directory you can write to\n"
        )
        let limited = run(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("d"), "--json"],
            fileSizeLimit: 100)
        #expect(limited.status == 1)
        #expect(limited.stdoutText.contains(#""diffError": "could not write "#), "\(limited.stdoutText)")
        let text = run(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("d")], fileSizeLimit: 100)
        #expect(text.stdoutText.contains("; no diff strip: could not write "), "\(text.stdoutText)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.file("d"))) == [])
    }

    /// One pixel of 1.2 million is 0.00008%: the report must not round it to 0.00%.
    @Test func aTinyShareIsNotRoundedToZero() throws {
        let plain = FrameSamples(width: 1200, height: 1000, values: [Float](repeating: 0.5, count: 4_800_000))
        var values = plain.values
        values[4 * 600_000 + 1] = 0.6
        let difference = FrameDifference(
            expected: plain, actual: FrameSamples(width: 1200, height: 1000, values: values), tolerance: 0)
        #expect(difference.pixelsOverTolerance == 1)
        #expect(difference.percentOverTolerance == "<0.01%")
        #expect(FrameDifference(expected: plain, actual: plain, tolerance: 0).percentOverTolerance == "0.00%")
        // All but one pixel is not 100.00%.
        var most = plain.values
        for pixel in 0..<1_200_000 where pixel != 600_000 { most[4 * pixel] = 0.6 }
        let nearlyAll = FrameDifference(
            expected: plain, actual: FrameSamples(width: 1200, height: 1000, values: most), tolerance: 0)
        #expect(nearlyAll.pixelsOverTolerance == 1_199_999)
        #expect(nearlyAll.percentOverTolerance == ">99.99%")
    }

    @Test func oneLevelOnOnePixelIsFoundAndForgivenByATolerance() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("a.png"))
        try Self.write(Self.frame(change: (7, 3, 1)), scratch.file("b.png"))
        let strict = run(["compare", scratch.file("a.png"), scratch.file("b.png")])
        #expect(strict.status == 1)
        #expect(
            strict.stdoutText.hasPrefix("a.png differs: 1 pixel (0.12%) over 0 levels; largest 1 level at (7, 3) G"))
        #expect(run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--tolerance", "1"]).status == 0)
        #expect(run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--max-differing", "0.2%"]).status == 0)
        // A bare number could mean a percentage or a share, so only 0 goes without its %.
        #expect(run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--max-differing", "0"]).status == 1)
        BadInputTests.expectRejected(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--max-differing", "0.2"], scratch: scratch,
            mentions: "--max-differing needs a % sign: write 0.2% for 0.2 percent, or 20% for a share of 0.2")
        BadInputTests.expectRejected(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--max-differing", "5"], scratch: scratch,
            mentions: "--max-differing needs a % sign: write 5% for 5 percent (see")
        // A negative share reaches the option's own check, not "missing value".
        BadInputTests.expectRejected(
            ["compare", scratch.file("a.png"), scratch.file("b.png"), "--max-differing", "-1%"], scratch: scratch,
            mentions: "--max-differing must be a percentage from 0% to 100%, such as 0.5%, not -1%")
    }

    @Test func depthsAndAlphaCompareOnOneScale() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("eight.png"))
        try Self.write(Self.frame(depth: 16), scratch.file("sixteen.png"))
        try Self.write(Self.frame(alpha: true), scratch.file("alpha.png"))
        #expect(run(["compare", scratch.file("eight.png"), scratch.file("sixteen.png")]).status == 0)
        #expect(run(["compare", scratch.file("eight.png"), scratch.file("alpha.png")]).status == 0)
    }

    @Test func missingExtraAndResizedFramesAreReportedByName() throws {
        let scratch = Scratch()
        for directory in ["expected", "actual"] {
            try FileManager.default.createDirectory(atPath: scratch.file(directory), withIntermediateDirectories: true)
        }
        try Self.write(Self.frame(), scratch.file("expected/a.png"))
        try Self.write(Self.frame(), scratch.file("expected/b.png"))
        try Self.write(Self.frame(), scratch.file("expected/c.png"))
        try Self.write(Self.frame(), scratch.file("actual/a.png"))
        try Self.write(Self.frame(width: 30), scratch.file("actual/b.png"))
        try Self.write(Self.frame(), scratch.file("actual/d.png"))
        let result = run(["compare", scratch.file("expected"), scratch.file("actual")])
        #expect(result.status == 1)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "b.png differs in size: 40x20 expected, 30x20 actual",
                "c.png is missing from \(scratch.file("actual"))",
                "d.png is extra in \(scratch.file("actual"))",
                "differ: 4 frames, 1 matching, 0 differing, 1 missing, 1 extra, 1 of another size; "
                    + "mean score 100.00 over the 1 frame compared",
            ])
        // The JSON statuses are the names the README documents.
        let json = run(["compare", scratch.file("expected"), scratch.file("actual"), "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])
        #expect(frames.map { $0["status"] as? String } == ["matches", "sizeMismatch", "missing", "extra"])
        #expect((report["summary"] as? [String: Any])?["sizeMismatch"] as? Int == 1)
    }

    @Test func unreadableInputsAreExitTwoNamingTheFile() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("good.png"))
        let good = try Data(contentsOf: URL(fileURLWithPath: scratch.file("good.png")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: scratch.file("truncated.png")))
        var corrupt = good
        corrupt[40] ^= 0x55
        try corrupt.write(to: URL(fileURLWithPath: scratch.file("corrupt.png")))
        for name in ["truncated.png", "corrupt.png", "absent.png"] {
            let result = run(["compare", scratch.file("good.png"), scratch.file(name)])
            #expect(result.status == 2, "\(name)")
            #expect(result.stderr.hasPrefix("fluidgradient: cannot read \(scratch.file(name))"), "\(result.stderr)")
        }
        let truncated = run(["compare", scratch.file("good.png"), scratch.file("truncated.png")])
        #expect(
            truncated.stderr.hasSuffix("truncated.png: the file ends early: it is truncated or damaged\n"),
            "\(truncated.stderr)")
    }

    @Test func jsonReportSchema() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("a.png"))
        try Self.write(Self.frame(change: (2, 1, 9)), scratch.file("b.png"))
        let result = run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--json"])
        #expect(result.status == 1)
        let root = try JSONParser.parse(Array(result.stdout))
        guard case .object(let members) = root.value else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.key) == ["expected", "actual", "tolerance", "maxDiffering", "match", "summary", "frames"])
        #expect(members[4].value.value == .bool(false))
        guard case .array(let frames) = members[6].value.value, case .object(let frame) = frames[0].value else {
            Issue.record("no frames")
            return
        }
        #expect(
            frame.map(\.key) == [
                "name", "status", "largestDifference", "worst", "pixelsOverTolerance", "shareOverTolerance", "psnr",
                "meanDeltaE", "largestDeltaE", "score",
            ])
        #expect(frame[1].value.value == .string("differs"))
        #expect(frame[2].value.value == .number(9))
        #expect(
            frame[3].value.value
                == .object([
                    ("x", JSONNode(.number(2))), ("y", JSONNode(.number(1))), ("channel", JSONNode(.string("G"))),
                ]))
        #expect(frame[4].value.value == .number(1))
    }

    @Test func diffStripsShowWhereFramesDiffer() throws {
        let scratch = Scratch()
        try Self.write(Self.frame(), scratch.file("a.png"))
        try Self.write(Self.frame(change: (12, 5, 30)), scratch.file("b.png"))
        // The directory is created, with its parents.
        let result = run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("ci/diffs")])
        #expect(result.status == 1)
        #expect(result.stdoutText.contains("diff \(scratch.file("ci/diffs/a.diff.png"))"))
        let strip = try PNGFile.read(scratch.file("ci/diffs/a.diff.png"))
        #expect(strip.width == 120 && strip.height == 20)
        // Left panel: expected; middle: actual; right: heat only at (12, 5).
        #expect(strip.storedRGBA(x: 12, y: 5) == PNGFileReadback.frame(Self.frame(), x: 12, y: 5))
        #expect(
            strip.storedRGBA(x: 40 + 12, y: 5) == PNGFileReadback.frame(Self.frame(change: (12, 5, 30)), x: 12, y: 5))
        for x in 0..<40 {
            for y in 0..<20 {
                let heat = strip.storedRGBA(x: 80 + x, y: y)
                if (x, y) == (12, 5) { #expect(heat.x == 1) } else { #expect(heat == SIMD4(0, 0, 0, 1)) }
            }
        }
        // Once the frames match again, the strip from the earlier run is gone.
        try Self.write(Self.frame(), scratch.file("b.png"))
        let again = run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("ci/diffs")])
        #expect(again.status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("ci/diffs/a.diff.png")))
        // A path that cannot be a directory is an input error, found before comparing.
        let blocked = run([
            "compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", scratch.file("a.png/diffs"),
        ])
        #expect(blocked.status == 2)
        #expect(blocked.stderr.hasPrefix("fluidgradient: cannot create the --diff directory"), "\(blocked.stderr)")
        #expect(
            blocked.stderr.hasSuffix(": Not a directory; give --diff a directory path that can be created\n"),
            "the system's reason, not Foundation's generic one: \(blocked.stderr)")
        // An empty directory (an unset variable in a script) would have meant the root.
        let empty = run(["compare", scratch.file("a.png"), scratch.file("b.png"), "--diff", ""])
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("fluidgradient: --diff needs a directory, not an empty path"), "\(empty.stderr)")
    }

    @Test func videosCompareWithPNGsAndThemselves() throws {
        let scratch = Scratch()
        #expect(
            run(["render", "--preset", "sunset", "--size", "160x90", "--frames", "12", "-o", scratch.file("clip.mp4")])
                .status == 0)
        #expect(
            run(["render", "--preset", "sunset", "--size", "160x90", "--frames", "12", "-o", scratch.file("%03d.png")])
                .status == 0)
        #expect(run(["compare", scratch.file("clip.mp4"), scratch.file("clip.mp4")]).status == 0)
        // H.264 is lossy: a codec's tolerance (see VideoTests) on nearly every pixel.
        let lossy = run([
            "compare", scratch.file("%03d.png"), scratch.file("clip.mp4"), "--tolerance", "16", "--max-differing",
            "0.5%",
        ])
        #expect(lossy.status == 0, "\(lossy.stdoutText)")
        #expect(lossy.stdoutText.hasPrefix("match: 12 frames, 12 matching"))
        let strict = run(["compare", scratch.file("%03d.png"), scratch.file("clip.mp4")])
        #expect(strict.status == 1)
    }
}

enum PNGFileReadback {
    /// Pixel `(x, y)` of an 8-bit RGB frame as the strip stores it.
    static func frame(_ buffer: PixelBuffer, x: Int, y: Int) -> SIMD4<Double> {
        let c = buffer.channels(x: x, y: y).map { Double($0) / 255 }
        return SIMD4(c[0], c[1], c[2], 1)
    }
}
