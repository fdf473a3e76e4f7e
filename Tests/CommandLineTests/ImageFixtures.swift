import Foundation
import Testing

/// Goldens rendered by the project and files encoded from them by other tools, for the
/// tests of what compare reads.
enum ImageFixtures {
    /// Renders `frames` frames of the aurora preset at 64x36 into `pattern` (a numbered PNG
    /// path), with `extra` flags (a transparent background, 16 bits, a frame rate).
    static func goldens(_ pattern: String, frames: Int, _ extra: [String] = []) {
        let render = ["render", "--preset", "aurora", "--size", "64x36", "--frames", String(frames)]
        let result = run(render + extra + ["-o", pattern])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Runs `tool` (found on PATH) with `arguments` and expects it to write `output`.
    static func make(_ output: String, with tool: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments + [output]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        #expect(throws: Never.self) { try process.run() }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool): \(String(decoding: message, as: UTF8.self))")
        #expect(FileManager.default.fileExists(atPath: output), "\(tool) wrote no \(output)")
    }

    /// ffmpeg encoding the numbered PNGs `input` at `fps` into `output` with `codec`.
    static func ffmpeg(_ output: String, from input: String, fps: Double, _ codec: [String]) {
        make(output, with: "ffmpeg", ["-v", "error", "-y", "-framerate", String(fps), "-i", input] + codec)
    }

    /// Writes the first `count` bytes of `path` to `truncated`.
    static func truncate(_ path: String, to count: Int, as truncated: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > count, "\(path) is only \(bytes.count) bytes")
        try bytes.prefix(count).write(to: URL(fileURLWithPath: truncated))
    }

    /// The report's (largest difference, worst channel) of each compared frame.
    static func largest(_ result: CommandResult) throws -> [(Double, String)] {
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])
        return frames.compactMap { frame in
            guard let largest = frame["largestDifference"] as? Double,
                let worst = frame["worst"] as? [String: Any]
            else { return nil }
            return (largest, worst["channel"] as? String ?? "?")
        }
    }
}
