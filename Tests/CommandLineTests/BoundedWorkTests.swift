import Foundation
import Testing

/// One frame of any valid preset is bounded work (issue 27), and a signal stops a render
/// of the heaviest valid preset at once.
@Suite struct BoundedWorkTests {
    /// The heaviest animation the preset contract allows: 64 blobs and 64 highlights, the
    /// highest speed, the shortest retarget interval and the longest duration.
    static func heaviest(in scratch: Scratch, loop: Bool) throws -> String {
        let colors = (0..<64).map { "\"#\(String(format: "%06X", $0 * 0x040404))\"" }.joined(separator: ", ")
        let json = """
            {"colors": [\(colors)], "highlights": [\(colors)], "speed": 10,
             "retargetInterval": {"min": 0.05, "max": 0.05}, "duration": 86400, "fps": 240, "loop": \(loop)}
            """
        let path = scratch.file(loop ? "loop.json" : "free.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A late instant of the heaviest preset, in a loop and out of one, renders well
    /// inside the deadline: it took 215 s and 292 MB when the springs were stepped from 0.
    @Test(arguments: [true, false])
    func oneFrameOfTheHeaviestPresetIsBoundedWork(loop: Bool) throws {
        let scratch = Scratch()
        let preset = try Self.heaviest(in: scratch, loop: loop)
        let result = run(
            [
                "render", "--preset", preset, "--size", "64x36", "--time", "86399.5", "--stats",
                "-o", scratch.file("late.png"),
            ],
            timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let peak = try #require(result.reportedPeakMiB, "no peak memory in \(result.stderr)")
        #expect(peak < 100, "peak memory \(peak) MiB")
    }

    /// SIGTERM during a render of the heaviest preset takes effect at once: status 130,
    /// the complete frames kept, no temporary file left.
    @Test func aSignalStopsARenderOfTheHeaviestPreset() throws {
        let scratch = Scratch()
        let preset = try Self.heaviest(in: scratch, loop: true)
        let command = RunningCommand([
            "render", "--preset", preset, "--size", "64x36", "--frame-range", "0-99999", "-o", scratch.file("%06d.png"),
        ])
        try waitForFrames(2, in: scratch, of: command)
        command.signal(SIGTERM)
        let result = command.wait(timeout: 10)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(scratch.contents.allSatisfy { !$0.hasPrefix(".") }, "temporary files left: \(scratch.contents)")
    }
}
