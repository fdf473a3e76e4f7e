import FluidGradient
import FluidGradientIO
import Foundation
import Testing
import XCTest

/// Golden-frame assertions for XCTest and Swift Testing suites: a rendered frame
/// compared with a PNG kept beside the test file.
///
/// Goldens live beside the test file: `__Goldens__/<TestFile>/<name>.png`. A missing
/// golden is recorded, and with `FLUIDGRADIENT_RECORD=1` every golden is re-recorded;
/// either way the test fails, so a recording is never mistaken for a pass. On a
/// mismatch the actual frame and an "expected | actual | difference" strip are written
/// to `__Artifacts__/<TestFile>/` beside the goldens (or to `$FLUIDGRADIENT_ARTIFACTS`),
/// and the failure says where the worst pixel is and by how much it differs.
///
/// ```swift
/// @Test func heroStill() throws {
///     let frame = try Preset(builtIn: "aurora").frame(at: 2, width: 320, height: 180)
///     Golden.assertMatches(frame, named: "hero")
/// }
/// ```
public enum Golden {
    /// The environment variable that, set to anything but empty, `0`, `false` or `no`,
    /// re-records every golden that is asserted.
    public static let recordVariable = "FLUIDGRADIENT_RECORD"
    /// The environment variable naming a directory to collect failure artifacts in.
    public static let artifactsVariable = "FLUIDGRADIENT_ARTIFACTS"

    /// What an assertion did.
    public enum Outcome: Equatable, Sendable {
        /// The frame matches its golden.
        case matched
        /// The golden at `path` was written; the test failed on purpose.
        case recorded(path: String)
        /// The frame differs, as `message` says; the test failed.
        case failed(message: String)
    }

    /// Asserts that `frame` matches the golden `name`, and reports a failure to the
    /// running test (Swift Testing or XCTest) unless it does.
    ///
    /// - Parameters:
    ///   - frame: The rendered frame.
    ///   - name: The golden's name, which may hold folders (`"group/frame"`).
    ///   - tolerance: The largest difference, in 8-bit levels, a matching pixel may have.
    ///   - maxDiffering: The share of pixels, 0...1, allowed over `tolerance`.
    ///   - fileID: The test's file, for the report.
    ///   - filePath: The test's file: the goldens are kept beside it.
    ///   - line: The assertion's line, for the report.
    ///   - column: The assertion's column, for the report.
    /// - Returns: What the assertion did.
    @discardableResult
    public static func assertMatches(
        _ frame: Frame, named name: String, tolerance: Double = 0, maxDiffering: Double = 0,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        assertMatches(
            frame.pixels, named: name, tolerance: tolerance, maxDiffering: maxDiffering, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// ``assertMatches(_:named:tolerance:maxDiffering:fileID:filePath:line:column:)`` for
    /// a pixel buffer.
    @discardableResult
    package static func assertMatches(
        _ frame: PixelBuffer, named name: String, tolerance: Double = 0, maxDiffering: Double = 0,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let existed = FileManager.default.fileExists(atPath: goldenURL(named: name, testFile: "\(filePath)").path)
        let outcome = check(
            frame, named: name, tolerance: tolerance, maxDiffering: maxDiffering, testFile: "\(filePath)")
        switch outcome {
        case .matched:
            break
        case .recorded(let path):
            location.fail(
                existed
                    ? "re-recorded golden \(path); run the test again without \(recordVariable) to compare against it"
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
            .appendingPathComponent(test.deletingPathExtension().lastPathComponent)
            .appendingPathComponent(name + ".png")
    }

    /// The decision, without reporting: what `assertMatches` would do. `recording`
    /// defaults to ``isRecording(_:)``, and `artifacts` to ``artifactsVariable``'s
    /// directory (nil: `__Artifacts__` beside the goldens).
    package static func check(
        _ frame: PixelBuffer, named name: String, tolerance: Double, maxDiffering: Double, testFile: String,
        recording: Bool = isRecording(), artifacts: String? = ProcessInfo.processInfo.environment[artifactsVariable]
    ) -> Outcome {
        let golden = goldenURL(named: name, testFile: testFile)
        guard tolerance >= 0, tolerance.isFinite, (0...1).contains(maxDiffering) else {
            return .failed(
                message: "\(name): tolerance is in 8-bit levels, 0 or more, and maxDiffering a share of the pixels, "
                    + "0...1 "
                    + "(0.005 for 0.5%); got \(tolerance) and \(maxDiffering)")
        }
        guard frame.format.bytesPerPixel != nil else {
            return .failed(
                message: "\(name): a golden frame is RGB or RGBA (8 or 16 bits), not \(frame.format.rawValue)")
        }
        let actual = FrameSamples(frame)
        // Whether a written PNG keeps alpha; only asked when one is written.
        let alpha = { frame.format.hasAlpha && actual.hasTransparency }
        if recording || !FileManager.default.fileExists(atPath: golden.path) {
            return record(frame, to: golden, alpha: alpha())
        }
        let expected: FrameSamples
        do {
            expected = try PNGFile.read(golden.path).samples
        } catch {
            return .failed(message: "\(error); delete it and run the test again to record it afresh")
        }
        let test = URL(fileURLWithPath: testFile)
        let artifacts = Artifacts(
            directory: (artifacts.map { URL(fileURLWithPath: $0) }
                ?? test.deletingLastPathComponent().appendingPathComponent("__Artifacts__"))
                .appendingPathComponent(test.deletingPathExtension().lastPathComponent),
            name: name, frame: frame, alpha: alpha)
        guard expected.width == actual.width, expected.height == actual.height else {
            return .failed(
                message: "\(name): the golden \(golden.path) is \(expected.width)x\(expected.height), "
                    + "the frame \(actual.width)x\(actual.height)"
                    + artifacts.write(strip: nil))
        }
        let difference = FrameDifference(expected: expected, actual: actual, tolerance: tolerance)
        if difference.matches(maximumShare: maxDiffering) {
            artifacts.remove()
            return .matched
        }
        let written = artifacts.write(strip: DiffStrip.render(expected: expected, actual: actual, tolerance: tolerance))
        return .failed(message: mismatch(name, golden: golden, difference, tolerance: tolerance) + written)
    }

    /// Writes `frame` as the golden at `golden`, making its folders.
    private static func record(_ frame: PixelBuffer, to golden: URL, alpha: Bool) -> Outcome {
        do {
            // A name may hold folders ("group/frame").
            let folder = golden.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PNGFile.write(frame, to: golden.path, alpha: alpha)
            return .recorded(path: golden.path)
        } catch {
            return .failed(message: "could not record golden \(golden.path): \(error)")
        }
    }

    /// How the frame `name` differs from its golden: how many pixels, the worst and by how much.
    private static func mismatch(
        _ name: String, golden: URL, _ difference: FrameDifference, tolerance: Double
    ) -> String {
        let channel = ["red", "green", "blue", "alpha"][difference.worst.channel]
        return "\(name) differs from its golden \(golden.path): \(counted(difference.pixelsOverTolerance, "pixel"))"
            + " (\(difference.percentOverTolerance))"
            + " over \(counted(tolerance, "level"))"
            + "; the worst, at (\(difference.worst.x), \(difference.worst.y)), differs by "
            + String(format: "%.1f levels in %@", difference.largest, channel)
            + String(format: "; PSNR %.1f dB, score %.2f", difference.psnr, difference.score)
    }
}

/// What a failed comparison leaves for a person to look at: the actual frame and the
/// "expected | actual | difference" strip.
private struct Artifacts {
    let directory: URL
    let frame: PixelBuffer
    /// Whether the frame's PNG keeps alpha; asked only when it is written.
    let alpha: () -> Bool
    let actualPath: URL
    let stripPath: URL

    init(directory: URL, name: String, frame: PixelBuffer, alpha: @escaping () -> Bool) {
        self.directory = directory
        self.frame = frame
        self.alpha = alpha
        actualPath = directory.appendingPathComponent(name + ".actual.png")
        stripPath = directory.appendingPathComponent(name + ".diff.png")
    }

    /// Writes the actual frame, and the strip when the sizes allow one.
    ///
    /// - Returns: where they are, or why they could not be written, to end the failure's message.
    func write(strip: PixelBuffer?) -> String {
        do {
            let folder = actualPath.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PNGFile.write(frame, to: actualPath.path, alpha: alpha())
            guard let strip else {
                // A strip of an earlier failure would show another actual frame.
                try? FileManager.default.removeItem(at: stripPath)
                return "; actual frame \(actualPath.path)"
            }
            try PNGFile.write(strip, to: stripPath.path)
            return "; actual frame \(actualPath.path), expected | actual | difference \(stripPath.path)"
        } catch {
            return "; could not write artifacts to \(directory.path): \(error)"
        }
    }

    /// Removes the artifacts of an earlier failure, which must not outlive it.
    func remove() {
        for path in [actualPath, stripPath] { try? FileManager.default.removeItem(at: path) }
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
        let sourceLocation = SourceLocation(
            fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        if Test.current == nil { XCTFail(message, file: filePath, line: line) }
    }
}
