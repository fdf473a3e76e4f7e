import Foundation
import Testing

/// `fluidgradient batch`, end to end with the real ffmpeg: resume, sharding, failure
/// isolation and interruption.
@Suite(.serialized) struct BatchCommandTests {
    /// 3 palettes (built-in preset, inline colours, palette file) × 2 sizes × 3 formats.
    static let manifest = """
        {
          "output": "out/{name}/{name}-{size}.{ext}",
          "defaults": { "fps": 10, "duration": 0.5, "loop": true, "seed": 3 },
          "palettes": [
            { "preset": "aurora" },
            { "name": "brand", "colors": ["#FF5F6D", "#FFC371", "#2EC4B6"], "background": "#1B1B2F" },
            { "name": "from-file", "palette": "colors.txt", "background": "#101010" }
          ],
          "sizes": ["64x36", "48x48"],
          "formats": ["mp4", "webm", "png"]
        }
        """

    static func setUp(_ scratch: Scratch, manifest: String = manifest) -> String {
        if !FileManager.default.fileExists(atPath: scratch.file("colors.txt")) {
            _ = FileManager.default.createFile(
                atPath: scratch.file("colors.txt"), contents: Data("#7400B8\n#48BFE3\n#80FFDB\n".utf8))
        }
        _ = FileManager.default.createFile(atPath: scratch.file("batch.json"), contents: Data(manifest.utf8))
        return scratch.file("batch.json")
    }

    struct Report {
        var jobs: [[String: Any]]
        func statuses() -> [String] { jobs.map { $0["status"] as! String } }
        func indices(where status: String) -> [Int] {
            jobs.filter { $0["status"] as! String == status }.map { $0["index"] as! Int }
        }
        func names(where status: String) -> [String] {
            jobs.filter { $0["status"] as! String == status }.map { $0["name"] as! String }
        }
    }

    static func batch(_ arguments: [String], environment: [String: String] = [:]) throws -> (CommandResult, Report) {
        let result = run(["batch", "--json"] + arguments, environment: environment, timeout: 300)
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let jobs = try #require(object?["jobs"] as? [[String: Any]], "no JSON report: \(result.stderr)")
        return (result, Report(jobs: jobs))
    }

    /// Every file under `directory`, with its bytes.
    static func files(in directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: directory)?.allObjects ?? [] {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    @Test func aSecondRunSkipsEverythingAndAChangedPaletteReRendersExactlyItsJobs() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(scratch)
        let (first, report) = try Self.batch([manifest])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(report.statuses() == Array(repeating: "rendered", count: 18))
        let rendered = Self.files(in: scratch.file("out"))
        #expect(rendered.count == 36, "18 outputs and 18 sidecars")
        #expect(probe(scratch.file("out/brand/brand-64x36.mp4"))["nb_read_frames"] == "5")
        #expect(probe(scratch.file("out/aurora/aurora-48x48.webm"))["codec_name"] == "vp9")

        let (second, again) = try Self.batch([manifest])
        #expect(second.status == 0)
        #expect(again.statuses() == Array(repeating: "skipped", count: 18))
        #expect(Self.files(in: scratch.file("out")) == rendered)

        // An output truncated or replaced since its sidecar was written is rendered again.
        let truncated = scratch.file("out/brand/brand-64x36.mp4"),
            replaced = scratch.file("out/aurora/aurora-48x48.png")
        _ = FileManager.default.createFile(atPath: truncated, contents: Data())
        _ = FileManager.default.createFile(atPath: replaced, contents: Data("not a png".utf8))
        let (_, afterDamage) = try Self.batch([manifest])
        #expect(afterDamage.names(where: "rendered").sorted() == ["aurora", "brand"])
        #expect(Self.files(in: scratch.file("out")) == rendered)

        // A palette file's colour: only its 6 jobs.
        _ = FileManager.default.createFile(
            atPath: scratch.file("colors.txt"), contents: Data("#7400B8\n#48BFE3\n#FFD166\n".utf8))
        let (_, afterFile) = try Self.batch([manifest])
        #expect(afterFile.names(where: "rendered") == Array(repeating: "from-file", count: 6))
        #expect(afterFile.indices(where: "skipped").count == 12)

        // An inline palette's colour: only its 6 jobs.
        _ = Self.setUp(scratch, manifest: Self.manifest.replacingOccurrences(of: "#FFC371", with: "#FFC372"))
        let (_, afterInline) = try Self.batch([manifest])
        #expect(afterInline.names(where: "rendered") == Array(repeating: "brand", count: 6))

        // A size appears: only its 9 jobs render; the old sizes are still up to date.
        _ = Self.setUp(
            scratch,
            manifest: Self.manifest.replacingOccurrences(of: "#FFC371", with: "#FFC372")
                .replacingOccurrences(of: #""48x48"]"#, with: #""48x48", "32x32"]"#))
        let (_, afterSize) = try Self.batch([manifest])
        #expect(afterSize.indices(where: "rendered").count == 9)
        #expect(afterSize.indices(where: "skipped").count == 18)

        let (forced, all) = try Self.batch([manifest, "--force", "--jobs", "2"])
        #expect(forced.status == 0)
        #expect(all.statuses() == Array(repeating: "rendered", count: 27))
    }

    @Test func shardsTogetherAreTheUnshardedOutputsByteForByte() throws {
        let whole = Scratch(), sharded = Scratch()
        let (result, unsharded) = try Self.batch([Self.setUp(whole)])
        #expect(result.status == 0)
        let manifest = Self.setUp(sharded)
        var seen: [Int] = []
        for k in 0..<3 {
            // Each shard a separate process with one thread, as on another, smaller machine.
            let (shard, report) = try Self.batch([manifest, "--shard", "\(k)/3", "--jobs", "1"])
            #expect(shard.status == 0)
            #expect(report.indices(where: "rendered") == Array(stride(from: k, to: 18, by: 3)))
            seen += report.indices(where: "rendered")
        }
        #expect(seen.sorted() == unsharded.indices(where: "rendered"), "shards overlap or miss jobs")
        let expected = Self.files(in: whole.file("out")), actual = Self.files(in: sharded.file("out"))
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (name, bytes) in expected { #expect(actual[name] == bytes, "\(name) differs") }
    }

    @Test func theShardComesFromKubernetesOrSlurmAndTheFlagWins() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(scratch)
        func planned(_ arguments: [String], _ environment: [String: String]) -> (Int32, [Int], String) {
            let result = run(["batch", manifest, "--dry-run"] + arguments, environment: environment)
            let indices = result.stdoutText.split(separator: "\n").dropFirst(2).compactMap {
                Int($0.split(separator: " ").first ?? "")
            }
            return (result.status, indices, result.stdoutText + result.stderr)
        }
        let kubernetes = planned([], ["JOB_COMPLETION_INDEX": "1", "FLUIDGRADIENT_SHARD_COUNT": "4"])
        #expect(kubernetes.1 == [1, 5, 9, 13, 17])
        #expect(kubernetes.2.hasPrefix("5 of 18 jobs (shard 1/4):"))
        #expect(planned(["--shard-count", "6"], ["JOB_COMPLETION_INDEX": "5"]).1 == [5, 11, 17])
        #expect(planned([], ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]).1 == [2, 5, 8, 11, 14, 17])
        #expect(planned(["--shard", "0/9"], ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]).1 == [0, 9])
        #expect(planned([], [:]).1 == Array(0..<18))

        let noCount = planned([], ["JOB_COMPLETION_INDEX": "1"])
        #expect(noCount.0 == 2)
        #expect(noCount.2.contains("JOB_COMPLETION_INDEX is set but not the number of shards"), "\(noCount.2)")
        let outOfRange = planned([], ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3"])
        #expect(outOfRange.0 == 2)
        #expect(planned(["--shard", "3/3"], [:]).0 == 2)
        // A value that starts with '-' reaches the shard check, not "Missing value".
        let negative = planned(["--shard", "-1/3"], [:])
        #expect(
            negative.0 == 2 && negative.2.contains("--shard must be K/N with 0 ≤ K < N, such as 0/4, not -1/3"),
            "\(negative.2)")
        let both = planned(["--shard", "0/3", "--shard-count", "3"], [:])
        #expect(both.0 == 2 && both.2.contains("--shard K/N already gives the number of shards"))
        let countAlone = planned(["--shard-count", "3"], [:])
        #expect(countAlone.0 == 2 && countAlone.2.contains("--shard-count needs a shard index"))
        let countAloneInEnvironment = planned([], ["FLUIDGRADIENT_SHARD_COUNT": "2"])
        #expect(
            countAloneInEnvironment.0 == 2
                && countAloneInEnvironment.2.contains("FLUIDGRADIENT_SHARD_COUNT=2 is set but no shard index is"))
        let notANumber = planned([], ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "x"])
        #expect(
            notANumber.0 == 2 && notANumber.2.contains("SLURM_ARRAY_TASK_COUNT=x is not a number"), "\(notANumber.2)")
        let countNotANumber = planned([], ["JOB_COMPLETION_INDEX": "0", "FLUIDGRADIENT_SHARD_COUNT": "abc"])
        #expect(countNotANumber.0 == 2 && countNotANumber.2.contains("FLUIDGRADIENT_SHARD_COUNT=abc is not a number"))
        #expect(scratch.contents.count == 2, "a dry run writes nothing")
    }

    @Test func relativePathsWorkFromTheManifestsDirectory() {
        let scratch = Scratch()
        // Outputs in a directory the batch creates, one level down from where it runs.
        _ = Self.setUp(
            scratch,
            manifest: Self.manifest.replacingOccurrences(
                of: "out/{name}/{name}-{size}.{ext}", with: "renders/{name}-{size}.{ext}"))
        let result = run(["batch", "batch.json", "--jobs", "2"], directory: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("renders/aurora-64x36.mp4 "))
        #expect(FileManager.default.fileExists(atPath: scratch.file("renders/from-file-48x48.png")))
    }

    @Test func aShardWithNoJobsSaysSo() {
        let scratch = Scratch()
        let manifest = Self.setUp(scratch)
        let result = run(["batch", manifest, "--shard", "20/25"])
        #expect(result.status == 0)
        #expect(result.stdoutText.hasSuffix("\n0 jobs (shard 20/25 of 18 jobs)\n"), "\(result.stdoutText)")
    }

    @Test func anOutputBlockedByAFileOrADirectoryFailsOnlyItsJobs() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(scratch)
        // A file where aurora's directory should be, and a directory where one of brand's outputs should be.
        try FileManager.default.createDirectory(
            atPath: scratch.file("out/brand/brand-64x36.png"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scratch.file("out/aurora"), contents: Data())
        let (result, report) = try Self.batch([manifest])
        #expect(result.status == 3)
        let failed = report.jobs.filter { $0["status"] as! String == "failed" }.map {
            ($0["job"] as! String, $0["message"] as! String)
        }
        #expect(failed.count == 7, "\(failed)")
        #expect(
            failed.filter { $0.0.hasPrefix("aurora ") }.allSatisfy {
                $0.1.hasSuffix("out/aurora is a file, not a directory; choose an output path inside a directory")
            })
        let blocked = try #require(failed.first { $0.0 == "brand 64x36 png" })
        #expect(blocked.1.contains("brand-64x36.png: it is a directory; name a file"), "\(blocked.1)")
    }

    @Test func aFailingJobIsReportedAndTheOthersStillRender() throws {
        let scratch = Scratch()
        // 63x35 cannot be 4:2:0 H.264 (VP9 takes it); the missing palette file fails all of its jobs.
        let manifest = Self.setUp(
            scratch,
            manifest: Self.manifest
                .replacingOccurrences(of: #""64x36", "48x48""#, with: #""63x35", "48x48""#)
                .replacingOccurrences(of: "colors.txt", with: "missing.txt"))
        // A dry run already shows which jobs cannot succeed, and why.
        let plan = run(["batch", manifest, "--dry-run"])
        #expect(plan.status == 0)
        let failing = plan.stdoutText.split(separator: "\n").filter { $0.contains("  fails: ") }
        #expect(failing.count == 8, "\(plan.stdoutText)")
        #expect(failing.filter { $0.contains("needs an even width and height") }.count == 2)
        let (result, report) = try Self.batch([manifest])
        #expect(result.status == 3)
        // Each failure is also one line on stderr, for logs that keep only stderr.
        let errorLines = result.stderr.split(separator: "\n")
        #expect(errorLines.count == 8, "\(result.stderr)")
        #expect(errorLines.allSatisfy { $0.hasPrefix("fluidgradient: ") && $0.contains(" failed: ") })
        // The path is named once: the encoder's message already starts with it.
        let oddLine = try #require(errorLines.first { $0.contains("aurora 63x35 mp4") })
        #expect(oddLine.components(separatedBy: "aurora-63x35.mp4").count == 2, "\(oddLine)")
        #expect(
            errorLines.contains {
                $0.contains("from-file 48x48 mp4")
                    && $0.hasSuffix("cannot read palette file \(scratch.file("missing.txt")): no such file")
            })
        let failed = report.jobs.filter { $0["status"] as! String == "failed" }
        // from-file's 6, and the other palettes' 63x35 mp4.
        #expect(failed.count == 8)
        #expect(failed.contains { ($0["message"] as! String).contains("needs an even width and height") })
        #expect(failed.contains { ($0["message"] as! String).contains("missing.txt") })
        #expect(report.indices(where: "rendered").count == 10)
        #expect(Self.files(in: scratch.file("out")).keys.allSatisfy { !$0.contains("/.") }, "temporary files left")

        // Rendered jobs are kept and skipped next time; the failures run again and fail again.
        let (_, again) = try Self.batch([manifest])
        #expect(again.indices(where: "skipped").count == 10)
        #expect(again.indices(where: "failed").count == 8)

        let table = run(["batch", manifest, "--force"])
        #expect(table.status == 3)
        #expect(table.stdoutText.contains("failed: "))
        #expect(table.stdoutText.hasSuffix("18 jobs: 10 rendered, 8 failed\n"))
    }

    @Test func theTableKeepsEachJobOnOneLine() throws {
        let scratch = Scratch()
        // A terminal escape in a palette file reaches the job's message.
        _ = FileManager.default.createFile(
            atPath: scratch.file("colors.txt"), contents: Data("#7400B8\nblu\u{1B}[2Jrple\n".utf8))
        let manifest = Self.setUp(
            scratch,
            manifest:
                #"{ "output": "out/{name}.{ext}", "palettes": [{ "name": "odd", "palette": "colors.txt" }], "#
                + #""sizes": ["48x48"], "formats": ["png"] }"#
        )
        for arguments in [[manifest], [manifest, "--dry-run"]] {
            let result = run(["batch"] + arguments)
            #expect(result.stdoutText.contains(#""blu\u{1B}[2Jrple" is not a colour"#), "\(result.stdoutText)")
            #expect(!result.stdoutText.contains("\u{1B}"))
            #expect(!result.stderr.contains("\u{1B}"))
        }
    }

    @Test func anFFmpegCrashFailsOnlyItsJob() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(scratch)
        // The real ffmpeg, except that it dies of SIGSEGV when asked for WebM.
        let wrapper = try script(
            "#!/bin/sh\ncase \"$*\" in *' webm '*) kill -SEGV $$;; esac\nexec ffmpeg \"$@\"\n", named: "ffmpeg",
            in: scratch)
        let (result, report) = try Self.batch([manifest], environment: ["FLUIDGRADIENT_FFMPEG": wrapper])
        #expect(result.status == 3)
        let failed = report.jobs.filter { $0["status"] as! String == "failed" }
        #expect(failed.map { $0["format"] as! String } == Array(repeating: "webm", count: 6))
        #expect(failed.allSatisfy { ($0["message"] as! String).contains("killed by signal 11") })
        #expect(report.indices(where: "rendered").count == 12)
        #expect(Self.files(in: scratch.file("out")).keys.filter { $0.hasSuffix(".webm") || $0.contains("/.") }.isEmpty)
    }

    @Test func failFastStopsAtTheFirstFailure() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(
            scratch, manifest: Self.manifest.replacingOccurrences(of: #""64x36""#, with: #""63x35""#))
        let (result, report) = try Self.batch([manifest, "--fail-fast", "--jobs", "1"])
        #expect(result.status == 3)
        // Job 0 (aurora 63x35 mp4) fails; nothing after it starts.
        #expect(report.statuses() == ["failed"] + Array(repeating: "cancelled", count: 17))
        #expect(
            !FileManager.default.fileExists(atPath: scratch.file("out")) || Self.files(in: scratch.file("out")).isEmpty)
    }

    /// An up-to-date output is left alone, so a read-only tree of finished renders checks
    /// as up to date; only a job that would write there fails. (Root writes anywhere, so
    /// as root the batch runs as nobody.)
    @Test func upToDateJobsInAReadOnlyDirectoryAreSkipped() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(
            scratch,
            manifest:
                #"{ "output": "ro/{name}-{size}.{ext}", "palettes": [{ "preset": "aurora" }], "#
                + #""sizes": ["32x18"], "formats": ["png"] }"#
        )
        #expect(run(["batch", manifest]).status == 0)
        chmod(scratch.file("ro"), 0o555)
        defer { chmod(scratch.file("ro"), 0o755) }
        let again = run(["batch", manifest, "--json"], launcher: unprivilegedLauncher)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdoutText.contains(#""status": "skipped""#), "\(again.stdoutText)")
        let more = Self.setUp(
            scratch,
            manifest:
                #"{ "output": "ro/{name}-{size}.{ext}", "palettes": [{ "preset": "aurora" }], "#
                + #""sizes": ["32x18", "48x27"], "formats": ["png"] }"#
        )
        let blocked = run(["batch", more], launcher: unprivilegedLauncher)
        #expect(blocked.status == 3)
        #expect(
            blocked.stderr.hasSuffix(
                "\(scratch.file("ro")) is not writable (Permission denied); choose a directory you can write to\n"),
            "\(blocked.stderr)")
    }

    @Test func anInterruptedBatchLeavesOnlyCompleteOutputsAndResumes() throws {
        let scratch = Scratch()
        let manifest = Self.setUp(
            scratch,
            manifest: Self.manifest
                .replacingOccurrences(of: #""duration": 0.5"#, with: #""duration": 30"#)
                .replacingOccurrences(of: #""64x36", "48x48""#, with: #""320x180""#)
                .replacingOccurrences(of: #", "png""#, with: ""))
        let command = RunningCommand(["batch", manifest, "--jobs", "1"])
        _ = try waitForChild(of: command.pid, named: "ffmpeg")
        usleep(500_000)
        command.signal(SIGINT)
        let result = command.wait()
        #expect(result.status == 130)
        #expect(
            result.stderr.hasSuffix("interrupted; completed outputs are kept; run the batch again to finish it\n"),
            "\(result.stderr)")
        #expect(result.stdoutText.contains("interrupted"))
        let left = Self.files(in: scratch.file("out"))
        #expect(
            left.keys.allSatisfy { !($0.split(separator: "/").last ?? "").hasPrefix(".") },
            "temporary files left: \(left.keys)")
        for name in left.keys where !name.hasSuffix(".fluidgradient.json") {
            #expect(left[name + ".fluidgradient.json"] != nil, "\(name) has no sidecar")
        }
        let plan = run(["batch", manifest, "--dry-run"]).stdoutText
        #expect(plan.components(separatedBy: "  render").count - 1 == 6 - left.count / 2, "\(plan)")
    }
}
