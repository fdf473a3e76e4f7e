import Foundation
import Testing

/// Values from flags and the environment are checked before any arithmetic that could
/// trap: each is refused in one line with exit status 2, and nothing is written.
@Suite struct OutsideValueTests {
    /// A step of infinity trapped on --retarget-interval, and left every blob NaN (a flat
    /// frame, exit 0) on the other three; a preset file's bounds hold on each.
    @Test(arguments: [("blob-size", "4"), ("blob-aspect", "16"), ("opacity", "1"), ("retarget-interval", "600")])
    func aStepIsHeldToTheBoundsOfAPresetFile(flag: String, upperBound: String) {
        let scratch = Scratch()
        for step in ["inf", "1e308", "601"] {
            let range = "0.1...0.5/\(step)", shown = step == "1e308" ? "1e+308" : step
            let result = run(["render", "--size", "32x18", "--\(flag)", range, "-o", scratch.file("o.png")])
            #expect(result.status == 2)
            let why = "step \(shown) is outside the allowed range 0...\(upperBound)"
            #expect(result.stderr == "fluidgradient: --\(flag): \"\(range)\": \(why)\n")
        }
        #expect(scratch.contents.isEmpty)
        let stepped = run(["render", "--size", "32x18", "--\(flag)", "0.1...0.5/0.1", "-o", scratch.file("o.png")])
        #expect(stepped.status == 0)
    }

    /// A Slurm task id at the bottom of the 64-bit range, less a minimum of 1, overflowed.
    @Test(arguments: [
        ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
        ["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-1", "SLURM_ARRAY_TASK_COUNT": "3"],
        ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "-9223372036854775808"],
    ])
    func overflowingShardVariablesStopTheBatch(environment: [String: String]) {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        let result = run(["batch", manifest, "--dry-run"], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("fluidgradient: SLURM_ARRAY_TASK_"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(result.stdout.isEmpty)
    }
}

extension OutsideValueTests {
    /// --background held its angle to no bounds; a preset file's are -36000...36000.
    @Test func aBackgroundAngleIsHeldToThePresetFileBounds() {
        let scratch = Scratch()
        let fill = "linear 1e300 red, blue"
        let result = run(["render", "--size", "32x18", "--background", fill, "-o", scratch.file("o.png")])
        #expect(result.status == 2)
        let why = "the angle 1e300 is outside the allowed range -36000...36000"
        #expect(result.stderr == "fluidgradient: --background: \"\(fill)\" is not a fill: \(why)\n")
        #expect(scratch.contents.isEmpty)
    }
}
