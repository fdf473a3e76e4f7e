import Foundation
import Testing

/// The README's recipes for Kubernetes, Slurm and GNU parallel (Examples/scaling/),
/// run as each engine would run them: every shard in its own process with the
/// engine's environment. Together the shards must give the unsharded outputs.
@Suite(.serialized) struct ScalingRecipeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func recipe(_ name: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent("Examples/scaling/" + name), encoding: .utf8)
    }

    /// Runs a program with the built `fluidgradient` first on PATH.
    static func execute(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        let binaryDirectory = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path
        merged["PATH"] = binaryDirectory + ":" + (merged["PATH"] ?? "/usr/bin:/bin")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The outputs an unsharded run of the test manifest gives.
    static func unshardedOutputs() throws -> [String: Data] {
        let scratch = Scratch()
        let result = run(["batch", BatchCommandTests.setUp(scratch), "--quiet"], timeout: 300)
        try #require(result.status == 0, "\(result.stderr)")
        return BatchCommandTests.files(in: scratch.file("out"))
    }

    static func expectSameOutputs(_ scratch: Scratch, _ expected: [String: Data]) {
        let actual = BatchCommandTests.files(in: scratch.file("out"))
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (name, bytes) in expected { #expect(actual[name] == bytes, "\(name) differs") }
    }

    /// `key: value` from a line of the recipe, such as `completions: 3`.
    static func value(of key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(key + ":") {
                return String(trimmed.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    @Test func kubernetesIndexedJob() throws {
        let yaml = try Self.recipe("kubernetes-indexed-job.yaml")
        #expect(Self.value(of: "completionMode", in: yaml) == "Indexed")
        let completions = try #require(Self.value(of: "completions", in: yaml).flatMap { Int($0) })
        let lines = yaml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let countLine = try #require(lines.firstIndex(of: "- name: FLUIDGRADIENT_SHARD_COUNT"))
        #expect(lines[countLine + 1] == "value: \"\(completions)\"", "the shard count must equal completions")
        // The container's command is a YAML flow sequence, which is also JSON.
        let command = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.value(of: "command", in: yaml)!.utf8)) as? [String])
        let expected = try Self.unshardedOutputs()
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        for index in 0..<completions {
            let arguments = command.map { $0.hasSuffix(".json") ? manifest : $0 }
            let result = try Self.execute(
                arguments,
                environment: ["JOB_COMPLETION_INDEX": String(index), "FLUIDGRADIENT_SHARD_COUNT": String(completions)])
            #expect(result.status == 0, "\(result.output)")
        }
        Self.expectSameOutputs(scratch, expected)
    }

    @Test func slurmJobArray() throws {
        let script = try Self.recipe("slurm-array.sbatch")
        let array = try #require(script.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=0-") })
        let tasks = try #require(Int(array.dropFirst("#SBATCH --array=0-".count))) + 1
        let expected = try Self.unshardedOutputs()
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        let path = Self.repository.appendingPathComponent("Examples/scaling/slurm-array.sbatch").path
        for task in 0..<tasks {
            let result = try Self.execute(["bash", path, manifest], environment: Self.slurmTask(task, of: tasks))
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.hasPrefix("array task \(task) of job 41 (job \(42 + task)) on "), "\(result.output)")
        }
        Self.expectSameOutputs(scratch, expected)
        #expect(try Self.execute(["bash", path]).status != 0, "a missing manifest argument is an error")
    }

    /// The variables Slurm sets for task `task` of an array of `tasks` (array job 41).
    static func slurmTask(_ task: Int, of tasks: Int) -> [String: String] {
        [
            "SLURM_ARRAY_TASK_ID": String(task), "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": String(tasks),
            "SLURM_ARRAY_JOB_ID": "41", "SLURM_JOB_ID": String(42 + task),
        ]
    }

    /// One long render as the array of `slurm-frame-range.sbatch`, joined by `join-pieces.sh`:
    /// with lossless H.264 the whole decodes to the frames one process writes.
    @Test func slurmFrameRangeArray() throws {
        let script = try Self.recipe("slurm-frame-range.sbatch")
        let array = try #require(script.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=0-") })
        let tasks = try #require(Int(array.dropFirst("#SBATCH --array=0-".count))) + 1
        let scratch = Scratch()
        let output = scratch.file("clip.mp4")
        let flags = ["--preset", "ember", "--size", "64x36", "--encode-size", "full", "--ffmpeg-options", "-qp 0"]
        let path = Self.repository.appendingPathComponent("Examples/scaling/slurm-frame-range.sbatch").path
        for task in 0..<tasks {
            let result = try Self.execute(
                ["bash", path, "14", output] + flags, environment: Self.slurmTask(task, of: tasks))
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("frames \(task * 14 / tasks)-\((task + 1) * 14 / tasks - 1) of 14"))
        }
        let join = Self.repository.appendingPathComponent("Examples/scaling/join-pieces.sh").path
        let joined = try Self.execute(["bash", join, output, String(tasks)])
        #expect(joined.status == 0, "\(joined.output)")
        let render = run(["render"] + flags.dropLast(4) + ["--frames", "14", "--pixel-format", "yuv420p", "-o", "-"])
        #expect(render.stdout.count == 14 * 64 * 36 * 3 / 2)
        #expect(FrameRangeJoinTests.decoded(output, "yuv420p") == render.stdout)
    }

    @Test func gnuParallel() throws {
        let expected = try Self.unshardedOutputs()
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        let path = Self.repository.appendingPathComponent("Examples/scaling/gnu-parallel.sh").path
        let result = try Self.execute(["sh", path, manifest, "4"])
        #expect(result.status == 0, "\(result.output)")
        Self.expectSameOutputs(scratch, expected)
    }

    @Test func theDocsShowEachRecipeAsTested() throws {
        let page = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        let recipes = [
            "kubernetes-indexed-job.yaml", "slurm-array.sbatch", "gnu-parallel.sh", "slurm-frame-range.sbatch",
            "join-pieces.sh",
        ]
        for name in recipes {
            #expect(page.contains(try Self.recipe(name)), "docs/scale-out.md does not show Examples/scaling/\(name)")
        }
    }
}
