import Foundation
import Testing

/// `compare --banding`, calibrated on the dark presets at 1080p: the engine's 8-bit frame
/// without dither is the banded control (its one-level steps are visible contours in a
/// dark gradient) and must be flagged; the same frame dithered, as the engine writes it by
/// default, must not.
@Suite(.serialized) struct BandingCompareTests {
    static func frames(_ preset: String, in scratch: Scratch) -> (reference: String, plain: String, dithered: String) {
        let instant = ["render", "--preset", preset, "--size", "1920x1080", "--time", "4"]
        let paths = (scratch.file("\(preset)-16.png"), scratch.file("\(preset)-8.png"), scratch.file("\(preset)-d.png"))
        #expect(run(instant + ["--depth", "16", "--dither", "off", "-o", paths.0]).status == 0)
        #expect(run(instant + ["--dither", "off", "-o", paths.1]).status == 0)
        #expect(run(instant + ["-o", paths.2]).status == 0)
        return paths
    }

    static func banding(_ expected: String, _ actual: String) throws -> [String: Any] {
        let result = run(["compare", expected, actual, "--banding", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let frame = (root["frames"] as! [[String: Any]])[0]
        return frame["banding"] as! [String: Any]
    }

    @Test(arguments: ["dusk", "graphite"])
    func theUnditheredFrameIsFlaggedAndTheDitheredOneIsNot(preset: String) throws {
        let scratch = Scratch()
        let (reference, plain, dithered) = Self.frames(preset, in: scratch)
        let control = try Self.banding(reference, plain)
        // Measured: dusk adds 2.90, graphite 2.39.
        #expect(control["flagged"] as? Bool == true && (control["added"] as! Double) > 2, "\(control)")
        let good = try Self.banding(reference, dithered)
        #expect(good["flagged"] as? Bool == false && (good["added"] as! Double) < 0.5, "\(good)")
        #expect((good["expected"] as! Double) == (control["expected"] as! Double))
    }

    @Test func theReportSaysWhichFramesBandAndTheSummaryCountsThem() throws {
        let scratch = Scratch()
        let (reference, plain, _) = Self.frames("dusk", in: scratch)
        let text = run(["compare", reference, plain, "--tolerance", "1", "--banding"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutText.contains("dusk-16.png bands: false contours of 2.9"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("banding: largest added 2.9"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("; 1 frame over 1.00"), "\(text.stdoutText)")
        let json = run(["compare", reference, plain, "--tolerance", "1", "--banding", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let summary = root["summary"] as! [String: Any]
        #expect(summary["bandedFrames"] as? Int == 1 && (summary["largestBandingAdded"] as! Double) > 2)
        // Without --banding, nothing of it.
        let plainReport = run(["compare", reference, plain, "--tolerance", "1", "--json"])
        #expect(!String(decoding: plainReport.stdout, as: UTF8.self).contains("banding"))
    }
}
