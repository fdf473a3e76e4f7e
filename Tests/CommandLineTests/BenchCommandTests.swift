import Foundation
import Testing

/// `bench`: per-stage times and fps, as text or JSON, for the performance issue's rows.
@Suite struct BenchCommandTests {
    @Test func reportsEveryStageAsJSON() throws {
        let result = run(["bench", "--size", "64x36", "--frames", "3", "--threads", "1", "--encode", "png", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["width"] as? Int == 64 && object["height"] as? Int == 36)
        #expect(object["frames"] as? Int == 3 && object["threads"] as? Int == 1)
        for stage in ["simulate", "raster", "blur", "output", "encode"] {
            let milliseconds = object[stage + "Milliseconds"] as? Double
            #expect(milliseconds.map { $0 >= 0 } == true, "\(stage): \(object)")
        }
        #expect(((object["encodeMilliseconds"] as? Double) ?? 0) > 0, "--encode png encodes")
        #expect(((object["fps"] as? Double) ?? 0) > 0)
    }

    @Test func printsATableWithCountsInWords() {
        let result = run(["bench", "--size", "64x36", "--frames", "1", "--threads", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdoutText.hasPrefix("default 64x36, 1 frame × 1 run, rgba, 1 thread, 7 blobs, sigma "),
            "\(result.stdoutText)")
        for stage in ["raster", "blur", "output", "total"] {
            #expect(result.stdoutText.contains("\n" + stage), "\(stage) missing: \(result.stdoutText)")
        }
    }

    @Test(arguments: [
        (["--threads", "0"], "--threads must be 1 to 256, not 0"),
        (["--threads", "-1"], "--threads must be 1 to 256, not -1"),
        (["--frames", "0"], "--frames and --repeat must be at least 1"),
        (["--encode", "jpeg"], "--encode must be none or png"),
        (["--size", "10x0"], "--size: \"10x0\" is not a usable size"),
    ])
    func refusesBadSettings(arguments: [String], message: String) {
        let result = BadInputTests.expectRejected(["bench"] + arguments, scratch: Scratch(), mentions: message)
        #expect(result.stderr.hasPrefix("fluidgradient: " + message), "\(result.stderr)")
    }
}
