import FluidGradientIO
import FluidGradientStudio
import Foundation
import Testing

/// A small preset for jobs: 64x36, `duration` seconds at 30 fps.
func smallPreset(duration: Double = 0.5, width: Int = 64, height: Int = 36) -> Preset {
    var preset = Preset(colors: [RGBA(red: 0.9, green: 0.2, blue: 0.3), RGBA(red: 0.1, green: 0.4, blue: 0.9)])
    preset.name = "small"
    preset.width = width
    preset.height = height
    preset.fps = 30
    preset.duration = duration
    return preset
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass; the bound only keeps a
/// broken build from hanging, it measures nothing.
///
/// - Returns: whether the condition held.
@discardableResult
func eventually(within seconds: Double = 120, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// Runs `arguments` (a program on PATH and its arguments) and returns what it wrote to
/// stdout; a failed expectation when it exits with another status than 0.
func runTool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(arguments[0]) failed", sourceLocation: sourceLocation)
    return output
}

/// The number of video frames ffprobe counts in the file at `path`.
func probedFrameCount(_ path: String) throws -> Int? {
    let output = try runTool([
        "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=nb_read_frames", "-of", "csv=p=0", path,
    ])
    return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The frames of an animated WebP: its `ANMF` chunks, counted by walking the RIFF chunks
/// (the ffmpeg here cannot decode animated WebP).
func webpFrameCount(_ data: Data) -> Int? {
    let bytes = [UInt8](data)
    guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x45, 0x42, 0x50]
    else { return nil }
    var offset = 12
    var frames = 0
    while offset + 8 <= bytes.count {
        let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
        if bytes[offset..<offset + 4] == [0x41, 0x4E, 0x4D, 0x46] { frames += 1 }
        offset += 8 + size + size % 2
    }
    return offset == bytes.count ? frames : nil
}

/// Runs blocking `work` (a socket read, a child process) on a thread of its own, so that it
/// never holds one of the few threads the server's tasks run on.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The entries of the zip at `path` and their bytes, as Python's zipfile reads them after
/// checking every entry's CRC (a reader written apart from ours).
func zipEntries(_ path: String) throws -> [String: Data] {
    let script = """
        import base64, json, sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        assert z.testzip() is None
        print(json.dumps({n: base64.b64encode(z.read(n)).decode() for n in z.namelist()}))
        """
    let entries = try JSONDecoder().decode([String: String].self, from: try runTool(["python3", "-c", script, path]))
    return entries.compactMapValues { Data(base64Encoded: $0) }
}
