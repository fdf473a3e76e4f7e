import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Batch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a manifest's palettes × sizes × formats, resumably, optionally as one shard of many.",
        discussion: """
            A manifest (JSON) lists "palettes" (built-in or file presets, or inline colours, named by "name" or else \
            by their "preset"; an entry with a "palette" file gives no "colors" or "blobs"), "sizes" and \
            "formats" (mp4, mov, webm, gif, webp, apng, avif, png, bundle), an "encodeSize" (auto, full or WxH, \
            as render's --encode-size; auto unless given, but full for mov), shared "defaults" (any preset key but \
            a palette's own: name, description, colors, blobs, highlightBlobs, and size, which "sizes" sets) and an \
            "output" template with \
            {name}, {width}, {height}, {size} and {ext}, whose file names must end in their format (.{ext}). \
            Relative paths in it are relative to the manifest.

            A job is skipped when its output exists and its sidecar (<output>.fluidgradient.json) shows it was \
            made from the same inputs; changing a palette, size or any setting re-renders just its jobs. Outputs \
            appear under their final names only when complete. Video encoders run with 4 threads each (as in \
            render), so a job gives the same bytes on any machine with the same ffmpeg.

            Sharding: --shard K/N renders jobs whose index is K modulo N, so N machines together render every \
            job once. Without --shard, Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX, with --shard-count or \
            FLUIDGRADIENT_SHARD_COUNT) and Slurm job arrays (SLURM_ARRAY_TASK_ID from SLURM_ARRAY_TASK_MIN, with \
            --shard-count or SLURM_ARRAY_TASK_COUNT) pick the shard.

            Exit status: 0 every job rendered or was up to date; 2 bad usage, an unreadable or invalid manifest, \
            or invalid shard settings; 3 a job failed; 130 interrupted. A --dry-run exits 0 unless the usage, the \
            manifest or the shard settings are invalid.
            """
    )

    @Argument(help: "The manifest, a .json file.")
    var manifest: String

    @Option(
        parsing: .unconditional, help: "Jobs at once, 1 to 64 (default: half the cores, at least 1).", transform: number
    )
    var jobs: Int?

    @Flag(
        help: ArgumentHelp(
            "List the jobs, their outputs and whether each would render, is up to date or would fail (and why), "
                + "without rendering."))
    var dryRun = false

    @Flag(help: "Render every job, even those up to date.")
    var force = false

    @Flag(help: "Stop at the first failed job.")
    var failFast = false

    @Option(text: ArgumentHelp("Render only shard K of N (0 ≤ K < N).", valueName: "K/N"))
    var shard: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The number of shards when the index comes from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID "
                + "(it overrides FLUIDGRADIENT_SHARD_COUNT and SLURM_ARRAY_TASK_COUNT); an error without one.",
            valueName: "N"), transform: number)
    var shardCount: Int?

    @Option(
        help: ArgumentHelp(
            "The size videos, animated images and bundles are encoded at, as render's --encode-size: auto (the "
                + "default, but full for mov), full or WxH; it overrides the manifest's \"encodeSize\".",
            valueName: "auto|full|WxH"))
    var encodeSize: String?

    @Flag(help: "Print the report as JSON on stdout.")
    var json = false

    @Flag(help: "No progress display.")
    var quiet = false

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be 1 to 64, not \(jobs)") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be K/N with 0 ≤ K < N, such as 0/4, not \(shard)")
        }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be at least 1") }
        if shard != nil, shardCount != nil {
            throw ValidationError("--shard K/N already gives the number of shards; drop --shard-count")
        }
    }

    func run() async throws {
        var parsed = try readManifest()
        parsed.output = resolve(parsed.output)
        if let encodeSize { parsed.encodeSize = try EncodeSizeRequest(parsing: encodeSize) }
        let selectedShard = try chosenShard()
        let allJobs = expandJobs(of: parsed)
        let selected = allJobs.filter { selectedShard.includes($0.index) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var options = BatchRunner.Options()
        options.jobs = jobs ?? max(1, cores / 2)
        options.threadsPerJob = max(1, cores / options.jobs)
        options.force = force
        options.failFast = failFast
        options.version = FluidGradientCommand.configuration.version
        if dryRun {
            printDryRun(selected, total: allJobs.count, shard: selectedShard, options: options)
            return
        }
        let progress = BatchProgress.ifTerminal(quiet: quiet, total: selected.count)
        let results = await BatchRunner(jobs: selected, options: options, progress: progress).run()
        print(
            json
                ? report(results, shard: selectedShard).serialized()
                : table(results, total: allJobs.count, shard: selectedShard))
        try finish(results)
    }

    /// A path in the manifest, relative to the manifest as it was named unless absolute.
    private func resolve(_ path: String) -> String {
        let base = manifest.lastIndex(of: "/").map { String(manifest[...$0]) } ?? ""
        return path.hasPrefix("/") ? path : base + path
    }

    /// The manifest, read and checked.
    private func readManifest() throws -> BatchManifest {
        try BatchManifest(json: try readFile(manifest, what: "manifest"), file: manifest)
    }

    /// The shard from --shard, or else from a scheduler's variables, or else all jobs.
    private func chosenShard() throws(ShardEnvironmentError) -> Shard {
        if let shard { return Shard(parsing: shard)! }
        return try Shard.fromEnvironment(ProcessInfo.processInfo.environment, count: shardCount) ?? .all
    }

    /// Every job of the manifest, reading the presets and palette files it names.
    private func expandJobs(of parsed: BatchManifest) -> [BatchJob] {
        parsed.jobs(
            loadPreset: { reference in
                let looksLikePath = reference.contains("/") || reference.hasSuffix(".json")
                do {
                    return .success(try PresetLibrary.load(looksLikePath ? resolve(reference) : reference))
                } catch let error as PresetError {
                    return .failure(.preset(error))
                } catch {
                    return .failure(.unreadable("\(error)"))
                }
            },
            loadPalette: { file in
                do {
                    return .success(
                        try PaletteFile.colors(try readFile(resolve(file), what: "palette file"), file: file))
                } catch let error as PresetError {
                    return .failure(.preset(error))
                } catch  where error is FileError || error is InterruptionError {
                    return .failure(.unreadable("\(error)"))
                } catch {
                    return .failure(.unreadable("\(file): \(error)"))
                }
            })
    }

    /// Reports each failure on stderr too, and ends with the status the results call for.
    private func finish(_ results: [BatchResult]) throws {
        // The table goes to stdout; each failure is also an error line, for logs that keep only stderr.
        for result in results where result.status == BatchResult.Status.failed {
            let message = result.message ?? "unknown reason"
            // Most messages already start with the output's path.
            printError(
                "\(result.job.label)" + (message.hasPrefix(result.job.output) ? "" : " (\(result.job.output))")
                    + " failed: \(message)")
        }
        if results.contains(where: { $0.status == BatchResult.Status.interrupted }) {
            throw InterruptionError(leftBehind: .batchOutputsKept)
        }
        if results.contains(where: {
            $0.status == BatchResult.Status.failed || $0.status == BatchResult.Status.cancelled
        }) {
            throw ExitCode(3)
        }
    }

    private func printDryRun(_ jobs: [BatchJob], total: Int, shard: Shard, options: BatchRunner.Options) {
        let plans = jobs.map { job -> String in
            switch BatchRunner.plan(for: job, options: options) {
            case .render: "render"
            case .upToDate: "up to date"
            case .fails(let message): "fails: \(message)"
            }
        }
        if json {
            print(
                JSONValue.object([
                    ("manifest", JSONNode(.string(manifest))),
                    ("shard", JSONNode(.string(shard.description))),
                    ("total", JSONNode(.number(Double(total)))),
                    (
                        "jobs",
                        JSONNode(
                            .array(
                                zip(jobs, plans).map { job, plan in
                                    JSONNode(.object(Self.jobFields(job) + [("plan", JSONNode(.string(plan)))]))
                                }))
                    ),
                ]).serialized())
            return
        }
        print("\(jobs.count) of \(counted(total, "job"))" + (shard == .all ? "" : " (shard \(shard))") + ":")
        let rows = zip(jobs, plans).map { job, plan in [String(job.index), job.label, job.output, plan] }
        print(Self.format(rows, header: ["#", "job", "output", "plan"]))
    }

    /// What identifies a job in the JSON reports.
    private static func jobFields(_ job: BatchJob) -> [(String, JSONNode)] {
        [
            ("index", JSONNode(.number(Double(job.index)))),
            ("job", JSONNode(.string(job.label))), ("name", JSONNode(.string(job.name))),
            ("width", JSONNode(.number(Double(job.width)))), ("height", JSONNode(.number(Double(job.height)))),
            ("format", JSONNode(.string(job.format.rawValue))), ("output", JSONNode(.string(job.output))),
        ]
    }

    private func table(_ results: [BatchResult], total: Int, shard: Shard) -> String {
        let rows = results.map { result in
            [
                result.job.label, result.job.output, String(result.frames), String(format: "%.1f", result.seconds),
                result.status.rawValue + (result.message.map { ": \($0)" } ?? ""),
            ]
        }
        let counts = BatchResult.Status.allCases.map { status in (status, results.filter { $0.status == status }.count)
        }
        .filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
        return Self.format(rows, header: ["job", "output", "frames", "seconds", "status"])
            + "\n\(counted(results.count, "job"))"
            + (shard == .all ? "" : " (shard \(shard) of \(counted(total, "job")))")
            + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
    }

    private func report(_ results: [BatchResult], shard: Shard) -> JSONValue {
        .object([
            ("manifest", JSONNode(.string(manifest))),
            ("shard", JSONNode(.string(shard.description))),
            (
                "jobs",
                JSONNode(
                    .array(
                        results.map { result in
                            var fields =
                                Self.jobFields(result.job) + [
                                    ("status", JSONNode(.string(result.status.rawValue))),
                                    ("frames", JSONNode(.number(Double(result.frames)))),
                                    ("seconds", JSONNode(.number((result.seconds * 1000).rounded() / 1000))),
                                ]
                            if let message = result.message { fields.append(("message", JSONNode(.string(message)))) }
                            return JSONNode(.object(fields))
                        }))
            ),
        ])
    }

    /// Rows as aligned columns, each cell on one line.
    static func format(_ rows: [[String]], header: [String]) -> String {
        let all = [header] + rows.map { $0.map(oneLine) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
