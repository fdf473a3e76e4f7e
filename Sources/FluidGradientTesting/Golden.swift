import FluidGradient
import FluidGradientIO
import Foundation
import Testing
import XCTest

/// Golden-frame assertions for XCTest and Swift Testing suites.
///
/// Goldens live beside the test file: `__Goldens__/<TestFile>/<name>.png`. A missing
/// golden is recorded, and with `FLUIDGRADIENT_RECORD=1` every golden is re-recorded;
/// either way the test fails, so a recording is never mistaken for a pass. On a
/// mismatch the actual frame and an "expected | actual | difference" strip are written
/// to `__Artifacts__/<TestFile>/` beside the goldens (or to `$FLUIDGRADIENT_ARTIFACTS`),
/// and the failure says where the worst pixel is and by how much it differs.
package enum Golden {
    /// Set to re-record every golden that is asserted.
    package static let recordVariable = "FLUIDGRADIENT_RECORD"
    /// Set to a directory to collect failure artifacts there.
    package static let artifactsVariable = "FLUIDGRADIENT_ARTIFACTS"

    /// What an assertion did.
    package enum Outcome: Equatable, Sendable {
        case matched
        /// The golden was written; the test failed on purpose.
        case recorded(path: String)
        /// The frame differs; the test failed.
        case failed(message: String)
    }

    /// Asserts that `frame` matches the golden `name`, within `tolerance` 8-bit levels
    /// on at least `1 − maxDiffering` of its pixels. Reports a failure to the running
    /// test (Swift Testing or XCTest) unless it matches.
    @discardableResult
    package static func assertMatches(
        _ frame: PixelBuffer, named name: String, tolerance: Double = 0, maxDiffering: Double = 0,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let existed = FileManager.default.fileExists(atPath: goldenURL(named: name, testFile: "\(filePath)").path)
        let outcome = check(frame, named: name, tolerance: tolerance, maxDiffering: maxDiffering, testFile: "\(filePath)")
        switch outcome {
        case .matched:
            break
        case .recorded(let path):
            location.fail(
                existed ? "re-recorded golden \(path); run the test again without \(recordVariable) to compare against it"
                    : "recorded golden \(path), which was missing; run the test again to compare against it")
        case .failed(let message):
            location.fail(message)
        }
        return outcome
    }

    /// A frame of `preset` at `time` seconds (dithered 8-bit RGBA, as rendered).
    package static func render(_ preset: Preset, at time: Double, width: Int, height: Int) -> PixelBuffer {
        var preset = preset
        preset.width = width
        preset.height = height
        var buffer = PixelBuffer(width: width, height: height, format: .rgba)
        FrameRenderer(spec: preset.frameSpec).render(
            Animator(preset: preset).scene(at: time), frameIndex: preset.ditherIndex(at: time), into: &buffer)
        return buffer
    }

    /// Whether `environment` asks to re-record goldens: ``recordVariable`` set to
    /// anything but empty, `0`, `false` or `no`.
    package static func isRecording(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment[recordVariable].map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
    }

    /// `__Goldens__/<TestFile>/<name>.png` beside `testFile`.
    package static func goldenURL(named name: String, testFile: String) -> URL {
        let test = URL(fileURLWithPath: testFile)
        return test.deletingLastPathComponent().appendingPathComponent("__Goldens__")
            .appendingPathComponent(test.deletingPathExtension().lastPathComponent).appendingPathComponent(name + ".png")
    }

    /// The decision, without reporting: what `assertMatches` would do. `recording`
    /// defaults to ``isRecording(_:)``, and `artifacts` to ``artifactsVariable``'s
    /// directory (nil: `__Artifacts__` beside the goldens).
    package static func check(
        _ frame: PixelBuffer, named name: String, tolerance: Double, maxDiffering: Double, testFile: String,
        recording: Bool = isRecording(), artifacts: String? = ProcessInfo.processInfo.environment[artifactsVariable]
    ) -> Outcome {
        let test = URL(fileURLWithPath: testFile)
        let stem = test.deletingPathExtension().lastPathComponent
        let golden = goldenURL(named: name, testFile: testFile)
        guard tolerance >= 0, tolerance.isFinite, (0...1).contains(maxDiffering) else {
            return .failed(
                message: "\(name): tolerance is in 8-bit levels, 0 or more, and maxDiffering a share of the pixels, 0...1 "
                    + "(0.005 for 0.5%); got \(tolerance) and \(maxDiffering)")
        }
        guard frame.format.bytesPerPixel != nil else {
            return .failed(message: "\(name): a golden frame is RGB or RGBA (8 or 16 bits), not \(frame.format.rawValue)")
        }
        let actual = FrameSamples(frame)
        // Whether a written PNG keeps alpha; only asked when one is written.
        func alpha() -> Bool { frame.format.hasAlpha && hasTransparency(actual) }
        if recording || !FileManager.default.fileExists(atPath: golden.path) {
            do {
                // A name may hold folders ("group/frame").
                try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
                try PNGFile.write(frame, to: golden.path, alpha: alpha())
                return .recorded(path: golden.path)
            } catch {
                return .failed(message: "could not record golden \(golden.path): \(error)")
            }
        }
        let expected: FrameSamples
        do {
            expected = FrameSamples(try PNGFile.read(golden.path))
        } catch {
            return .failed(message: "\(error.message); delete it and run the test again to record it afresh")
        }
        let artifacts = (artifacts.map { URL(fileURLWithPath: $0) }
            ?? test.deletingLastPathComponent().appendingPathComponent("__Artifacts__")).appendingPathComponent(stem)
        let actualPath = artifacts.appendingPathComponent(name + ".actual.png")
        let stripPath = artifacts.appendingPathComponent(name + ".diff.png")
        /// Writes the actual frame, and the strip when the sizes allow one; says where.
        func writeArtifacts(strip: PixelBuffer?) -> String {
            do {
                try FileManager.default.createDirectory(at: actualPath.deletingLastPathComponent(), withIntermediateDirectories: true)
                try PNGFile.write(frame, to: actualPath.path, alpha: alpha())
                guard let strip else {
                    // A strip of an earlier failure would show another actual frame.
                    try? FileManager.default.removeItem(at: stripPath)
                    return "; actual frame \(actualPath.path)"
                }
                try PNGFile.write(strip, to: stripPath.path)
                return "; actual frame \(actualPath.path), expected | actual | difference \(stripPath.path)"
            } catch {
                return "; could not write artifacts to \(artifacts.path): \(error)"
            }
        }
        guard expected.width == actual.width, expected.height == actual.height else {
            return .failed(
                message: "\(name): the golden \(golden.path) is \(expected.width)x\(expected.height), the frame \(actual.width)x\(actual.height)"
                    + writeArtifacts(strip: nil))
        }
        let difference = FrameDifference(expected: expected, actual: actual, tolerance: tolerance)
        if difference.matches(maximumShare: maxDiffering) {
            // Artifacts of an earlier failure must not outlive it.
            for path in [actualPath, stripPath] { try? FileManager.default.removeItem(at: path) }
            return .matched
        }
        let written = writeArtifacts(strip: DiffStrip.render(expected: expected, actual: actual, tolerance: tolerance))
        let channel = ["red", "green", "blue", "alpha"][difference.worst.channel]
        return .failed(message:
            "\(name) differs from its golden \(golden.path): \(counted(difference.pixelsOverTolerance, "pixel"))"
            + " (\(difference.percentOverTolerance))"
            + " over \(counted(tolerance, "level")); the worst, at (\(difference.worst.x), \(difference.worst.y)), differs by "
            + String(format: "%.1f levels in %@", difference.largest, channel)
            + String(format: "; PSNR %.1f dB, score %.2f", difference.psnr, difference.score)
            + written)
    }

    private static func hasTransparency(_ samples: FrameSamples) -> Bool {
        stride(from: 3, to: samples.values.count, by: 4).contains { samples.values[$0] < 1 }
    }
}

/// Where a failure is reported, for whichever test library is running.
private struct Location {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Swift Testing sees an issue recorded outside a test's task (a detached task) too,
    /// where `Test.current` is nil, so that case goes to both libraries: each ignores
    /// what it is not running. (With the libraries' experimental interop turned on, such
    /// a failure would be reported twice.)
    func fail(_ message: String) {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        if Test.current == nil { XCTFail(message, file: filePath, line: line) }
    }
}
