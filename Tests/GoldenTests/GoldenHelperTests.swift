import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// The golden helper's record, compare and fail paths, against a scratch "test file".
@Suite final class GoldenHelperTests {
    let directory: String
    let testFile: String

    init() throws {
        directory = NSTemporaryDirectory() + "fluidgradient-golden-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        testFile = directory + "/SomeTests.swift"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static func frame(shift: Int = 0) -> PixelBuffer {
        var preset = Preset(colors: [RGBA(bytes: 230, 57, 70), RGBA(bytes: 29, 53, 87)])
        preset.seed = UInt64(3 + shift)
        return Golden.render(preset, at: 0, width: 48, height: 27)
    }

    /// `Golden.check` with no tolerance, against `testFile`, neither forced to record nor
    /// told of an artifacts directory by the environment.
    func check(
        _ frame: PixelBuffer, named name: String, tolerance: Double = 0, maxDiffering: Double = 0,
        testFile: String? = nil,
        recording: Bool = false
    ) -> Golden.Outcome {
        Golden.check(
            frame, named: name, tolerance: tolerance, maxDiffering: maxDiffering, testFile: testFile ?? self.testFile,
            recording: recording, artifacts: nil)
    }

    @Test func recordsAMissingGoldenAndFails() throws {
        let outcome = check(Self.frame(), named: "first")
        let path = directory + "/__Goldens__/SomeTests/first.png"
        #expect(outcome == .recorded(path: path))
        #expect(try PNGFile.read(path).width == 48)
        // The assertion itself reports the recording as a failure.
        withKnownIssue {
            Golden.assertMatches(Self.frame(), named: "second-\(UUID().uuidString)")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("recorded golden") }
        }
        // Recorded by that call beside this test file; remove it.
        let stray = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "__Goldens__/GoldenHelperTests")
        try? FileManager.default.removeItem(at: stray)
    }

    @Test func matchesARecordedGolden() throws {
        _ = check(Self.frame(), named: "same")
        #expect(check(Self.frame(), named: "same") == .matched)
    }

    @Test func failureNamesTheWorstPixelAndWritesArtifacts() throws {
        _ = check(Self.frame(), named: "changed")
        var altered = Self.frame()
        altered.withUnsafeMutableBytes { bytes in
            let offset = (10 * 48 + 20) * 4 + 1
            bytes[offset] = bytes[offset] < 250 ? bytes[offset] + 5 : bytes[offset] - 5
        }
        let outcome = check(altered, named: "changed")
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(
            message.contains(
                "changed differs from its golden \(directory)/__Goldens__/SomeTests/changed.png: "
                    + "1 pixel (0.08%) over 0 levels"
            ))
        #expect(message.contains("the worst, at (20, 10), differs by 5.0 levels in green"))
        let artifacts = directory + "/__Artifacts__/SomeTests/"
        #expect(message.contains(artifacts + "changed.actual.png"))
        #expect(try PNGFile.read(artifacts + "changed.actual.png").width == 48)
        let strip = try PNGFile.read(artifacts + "changed.diff.png")
        #expect(strip.width == 3 * 48 && strip.height == 27)
        // The difference panel is black except at the changed pixel.
        #expect(strip.samples.rgba(x: 2 * 48 + 20, y: 10).x > 0.2)
        #expect(strip.samples.rgba(x: 2 * 48 + 21, y: 10) == SIMD4(0, 0, 0, 1))
        // Within a tolerance of 5 levels it matches, and the artifacts of the failure go.
        #expect(check(altered, named: "changed", tolerance: 5) == .matched)
        #expect(!FileManager.default.fileExists(atPath: artifacts + "changed.actual.png"))
        #expect(!FileManager.default.fileExists(atPath: artifacts + "changed.diff.png"))
        // And the assertion reports the failure to the running test.
        let sourceFile = directory + "/ReportTests.swift"
        _ = check(Self.frame(), named: "report", testFile: sourceFile)
        #expect(check(Self.frame(shift: 1), named: "report", testFile: sourceFile) != .matched)
    }

    /// A frame of another size writes the actual frame (a strip needs equal sizes).
    @Test func aSizeMismatchWritesTheActualFrame() throws {
        _ = check(Self.frame(), named: "sized")
        let other = Golden.render(Preset(colors: [RGBA(bytes: 230, 57, 70)]), at: 0, width: 27, height: 48)
        let outcome = check(other, named: "sized")
        let actual = directory + "/__Artifacts__/SomeTests/sized.actual.png"
        #expect(
            outcome
                == .failed(
                    message:
                        "sized: the golden \(directory)/__Goldens__/SomeTests/sized.png is 48x27, the frame 27x48; "
                        + "actual frame \(actual)"
                ))
        #expect(try PNGFile.read(actual).width == 27)
        // A strip left by an earlier failure of the same size goes: it shows another frame.
        _ = check(Self.frame(shift: 1), named: "sized")
        let strip = directory + "/__Artifacts__/SomeTests/sized.diff.png"
        #expect(FileManager.default.fileExists(atPath: strip))
        _ = check(other, named: "sized")
        #expect(!FileManager.default.fileExists(atPath: strip))
    }

    /// Names may hold folders; a frame that is not RGB(A) fails its assertion, not the process.
    @Test func namesWithFoldersAndUnsupportedFormats() throws {
        let outcome = check(Self.frame(), named: "group/nested")
        #expect(outcome == .recorded(path: directory + "/__Goldens__/SomeTests/group/nested.png"))
        let yuv = PixelBuffer(width: 48, height: 28, format: .yuv420p)
        #expect(
            check(yuv, named: "yuv")
                == .failed(message: "yuv: a golden frame is RGB or RGBA (8 or 16 bits), not yuv420p"))
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: directory + "/__Goldens__/SomeTests/broken.png"))
        guard case .failed(let message) = check(Self.frame(), named: "broken") else {
            Issue.record("a corrupt golden matched")
            return
        }
        #expect(message.hasSuffix("; delete it and run the test again to record it afresh"), "\(message)")
        // maxDiffering is a share: 5 would let every pixel differ.
        #expect(
            check(Self.frame(), named: "group/nested", maxDiffering: 5)
                == .failed(
                    message:
                        "group/nested: tolerance is in 8-bit levels, 0 or more, "
                        + "and maxDiffering a share of the pixels, 0...1 (0.005 for 0.5%); got 0.0 and 5.0"
                ))
        #expect(message.components(separatedBy: "cannot read").count == 2, "\(message)")
    }

    @Test func recordingCanBeForcedForEveryGolden() throws {
        _ = check(Self.frame(), named: "forced")
        let outcome = check(Self.frame(shift: 2), named: "forced", recording: true)
        #expect(outcome == .recorded(path: directory + "/__Goldens__/SomeTests/forced.png"))
        #expect(check(Self.frame(shift: 2), named: "forced") == .matched)
    }

    @Test func theEnvironmentVariableTurnsRecordingOn() {
        #expect(Golden.isRecording([Golden.recordVariable: "1"]))
        #expect(Golden.isRecording([Golden.recordVariable: "yes"]))
        #expect(!Golden.isRecording([Golden.recordVariable: "0"]))
        #expect(!Golden.isRecording([Golden.recordVariable: "false"]))
        #expect(!Golden.isRecording([Golden.recordVariable: "NO"]))
        #expect(!Golden.isRecording([Golden.recordVariable: ""]))
        #expect(!Golden.isRecording([:]))
    }
}
