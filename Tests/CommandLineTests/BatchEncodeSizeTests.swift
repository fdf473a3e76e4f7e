import Foundation
import Testing

/// `batch` encodes at the size `render` would: `auto` for the delivery formats, `full` for
/// `.mov`, or the manifest's `encodeSize`, which `--encode-size` overrides.
@Suite(.serialized) struct BatchEncodeSizeTests {
    /// The default preset at 640x360: σ ≈ 83 px, so `auto` is 320x180 (as `render` chooses).
    static func manifest(encodeSize: String? = nil) -> String {
        """
        {
          "output": "out/{name}-{size}.{ext}",
          "defaults": { "fps": 10, "duration": 0.3, "loop": true },
          "palettes": [{ "preset": "default" }],
          "sizes": ["640x360"],
          "formats": ["mp4", "webm", "mov", "gif"]\(encodeSize.map { ",\n  \"encodeSize\": \"\($0)\"" } ?? "")
        }
        """
    }

    /// Each output's encoded width, by extension.
    static func widths(_ scratch: Scratch) -> [String: String] {
        var widths: [String: String] = [:]
        for ext in ["mp4", "webm", "mov", "gif"] {
            widths[ext] = probe(scratch.file("out/default-640x360.\(ext)"), countFrames: false)["width"]
        }
        return widths
    }

    @Test func deliveryFormatsAreEncodedAtTheAutomaticSizeAndMovAtFullSize() throws {
        let scratch = Scratch()
        let (result, report) = try BatchCommandTests.batch([BatchCommandTests.setUp(scratch, manifest: Self.manifest())]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(report.statuses() == Array(repeating: "rendered", count: 4))
        #expect(Self.widths(scratch) == ["mp4": "320", "webm": "320", "mov": "640", "gif": "320"])
        let sidecar = try String(
            contentsOfFile: scratch.file("out/default-640x360.mp4.fluidgradient.json"), encoding: .utf8)
        #expect(sidecar.contains("\"encodeSize\": \"320x180\""), "\(sidecar)")
    }

    @Test func theManifestsEncodeSizeAppliesAndTheFlagOverridesIt() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch, manifest: Self.manifest(encodeSize: "full"))
        let (full, _) = try BatchCommandTests.batch([manifest])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(Self.widths(scratch) == ["mp4": "640", "webm": "640", "mov": "640", "gif": "640"])
        // Another encode size is another output: every job renders again.
        let (sized, report) = try BatchCommandTests.batch([manifest, "--encode-size", "160x90"])
        #expect(sized.status == 0, "\(sized.stderr)")
        #expect(report.statuses() == Array(repeating: "rendered", count: 4))
        #expect(Self.widths(scratch) == ["mp4": "160", "webm": "160", "mov": "160", "gif": "160"])
    }

    @Test func anEncodeSizeAJobCannotTakeFailsThatJobAndABadOneTheBatch() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch, manifest: Self.manifest())
        let (odd, report) = try BatchCommandTests.batch([manifest, "--encode-size", "320x181", "--dry-run"])
        #expect(odd.status == 0, "\(odd.stderr)")
        let plans = report.jobs.map { $0["plan"] as? String ?? "" }
        #expect(plans[0].hasPrefix("fails: --encode-size 320x181 does not keep the output's aspect ratio"), "\(plans)")
        let bad = run(["batch", manifest, "--encode-size", "half"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("\"half\" is not auto, full or a size such as 640x360"), "\(bad.stderr)")
    }
}
