import FluidGradient
import Foundation

/// What happened to one job of a batch.
package struct BatchResult: Sendable {
    package enum Status: String, Sendable, CaseIterable {
        /// Rendered now.
        case rendered
        /// Already complete from the same inputs.
        case skipped
        case failed
        /// Not run, or stopped, because another job failed (`--fail-fast`).
        case cancelled
        case interrupted
    }

    package var job: BatchJob
    package var status: Status
    package var frames: Int
    package var seconds: Double
    /// Why it failed, in one sentence.
    package var message: String?
}

/// Runs a batch's jobs on a pool of worker threads.
///
/// A finished output is recorded by a sidecar, `<output>.fluidgradient.json`, holding
/// the job's ``BatchJob/sidecar(version:outputBytes:)`` (tool version, format, frames,
/// the full preset, and the output's size). A job is skipped when its output exists and
/// its sidecar is exactly what this run would write for it. Before a job
/// renders, its old sidecar is removed; the sidecar is written only after the output
/// has been renamed into place, so an interrupted or failed job is never taken for
/// complete later.
package final class BatchRunner: Sendable {
    package struct Options: Sendable {
        package var jobs = 1
        package var threadsPerJob = 1
        package var force = false
        package var failFast = false
        package var version = Preset.engineVersion
        package init() {}
    }

    package static func sidecarPath(for output: String) -> String { output + ".fluidgradient.json" }

    /// Whether `job`'s output is complete from the same inputs, and still the size it was.
    private static func isUpToDate(_ job: BatchJob, version: String) -> Bool {
        guard let size = AtomicFile.regularFileSize(outputFile(job)),
            let expected = job.sidecar(version: version, outputBytes: size),
            let recorded = FileManager.default.contents(atPath: sidecarPath(for: job.output))
        else { return false }
        return recorded == Data(expected.utf8)
    }

    /// The file whose size the sidecar records: the output, or a bundle's manifest.
    private static func outputFile(_ job: BatchJob) -> String {
        job.format == .bundle ? job.output + "/manifest.json" : job.output
    }

    /// What running a job would do, with the job's preset where it loaded.
    package enum Plan: Sendable {
        case render(Preset)
        /// Its output is complete from the same inputs.
        case upToDate(Preset)
        /// It fails before rendering, for this reason (one sentence).
        case fails(String)
    }

    /// What running `job` would do, decided as ``run()`` decides it before rendering:
    /// a preset that did not load, a size the video encoding cannot take or an output
    /// directory that cannot be written fails it; otherwise it is up to date or renders.
    package static func plan(for job: BatchJob, options: Options) -> Plan {
        let preset: Preset
        switch job.preset {
        case .success(let resolved): preset = resolved
        case .failure(let error): return .fails(error.description)
        }
        do {
            let encoded = try job.encodeSize(of: preset)
            if let container = VideoContainer(rawValue: job.format.rawValue), let encoded {
                let encoding = VideoEncoding(
                    container: container, hasTransparency: preset.frameSpec.hasTransparency,
                    colorSpace: preset.colorSpace)
                try encoding.check(width: encoded.width, height: encoded.height, path: job.output)
            }
            // An up-to-date output is left alone, so its directory may be read-only.
            if !options.force, isUpToDate(job, version: options.version) { return .upToDate(preset) }
            try AtomicFile.checkWritable(job.output)
            // Found now, not after the render: the sidecar's name is the output's and more.
            let sidecarName = (sidecarPath(for: job.output) as NSString).lastPathComponent
            guard sidecarName.utf8.count <= AtomicFile.longestName else {
                throw OutputError.sidecarNameTooLong(
                    path: job.output, length: sidecarName.utf8.count, limit: AtomicFile.longestName)
            }
        } catch {
            return .fails("\(error)")
        }
        return .render(preset)
    }

    private let jobs: [BatchJob]
    private let options: Options
    private let progress: BatchProgress?

    package init(jobs: [BatchJob], options: Options, progress: BatchProgress?) {
        self.jobs = jobs
        self.options = options
        self.progress = progress
    }

    /// Runs every job, ``Options/jobs`` at once; results come back in the jobs' order. A
    /// failure with ``Options/failFast`` cancels the running jobs and starts no more.
    package func run() async -> [BatchResult] {
        var results: [Int: BatchResult] = [:]
        await withTaskGroup(of: BatchResult.self) { group in
            var next = 0, stopping = false
            func startNext() {
                guard !stopping, !Interruption.isRequested, next < jobs.count else { return }
                let job = jobs[next]
                next += 1
                group.addTask { await self.perform(job) }
            }
            for _ in 0..<max(1, min(options.jobs, jobs.count)) { startNext() }
            while let result = await group.next() {
                results[result.job.index] = result
                progress?.completed(result, done: results.count)
                if result.status == .failed, options.failFast {
                    stopping = true
                    group.cancelAll()
                }
                startNext()
            }
        }
        progress?.finish()
        return jobs.map { job in
            results[job.index]
                ?? BatchResult(
                    job: job, status: Interruption.isRequested ? .interrupted : .cancelled, frames: 0, seconds: 0,
                    message: Interruption.isRequested
                        ? "interrupted before it started" : "not started: an earlier job failed")
        }
    }

    /// Renders `job` into its output through the library's `Preset.write(to:…)`: a video at
    /// its encode size (the job's, or `auto` but for `.mov`), a still of instant 0, or a
    /// bundle.
    private func render(_ job: BatchJob, preset: Preset) async throws(RenderError) {
        let output: Output
        if let container = VideoContainer(rawValue: job.format.rawValue) {
            output = .video(path: job.output, container: container)
        } else if job.format == .bundle {
            output = .bundle(directory: job.output)
        } else {
            output = .png(path: job.output)
        }
        let (events, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let showing = Task { [progress] in
            for await case .progress(let update) in events {
                progress?.update(index: job.index, label: job.label, progress: update)
            }
        }
        // The write finishes the events, so the showing ends before the job is reported done.
        do {
            try await preset.write(
                to: output, encodeSize: job.format == .png ? nil : job.encodeSize, threads: options.threadsPerJob,
                events: continuation)
        } catch {
            await showing.value
            throw error
        }
        await showing.value
    }

    private func perform(_ job: BatchJob) async -> BatchResult {
        let preset: Preset
        switch BatchRunner.plan(for: job, options: options) {
        case .fails(let message): return BatchResult(job: job, status: .failed, frames: 0, seconds: 0, message: message)
        case .upToDate(let resolved):
            return BatchResult(job: job, status: .skipped, frames: job.frameCount(of: resolved), seconds: 0)
        case .render(let resolved): preset = resolved
        }
        let frames = job.frameCount(of: preset)
        let start = Date()
        do {
            try AtomicFile.createDirectory(AtomicFile.parentDirectory(of: job.output), for: job.output)
            unlink(BatchRunner.sidecarPath(for: job.output))
            try await render(job, preset: preset)
            let sidecar = job.sidecar(
                version: options.version, outputBytes: AtomicFile.regularFileSize(BatchRunner.outputFile(job)))!
            try AtomicFile.write(
                Array(sidecar.utf8), to: BatchRunner.sidecarPath(for: job.output), suggestedExtension: "json")
            return BatchResult(job: job, status: .rendered, frames: frames, seconds: Date().timeIntervalSince(start))
        } catch {
            let seconds = Date().timeIntervalSince(start)
            if case .interrupted = error as? RenderError {
                let status: BatchResult.Status = Interruption.isRequested ? .interrupted : .cancelled
                return BatchResult(
                    job: job, status: status, frames: 0, seconds: seconds, message: "stopped; partial output removed")
            }
            return BatchResult(job: job, status: .failed, frames: 0, seconds: seconds, message: "\(error)")
        }
    }
}

/// Batch progress on a terminal: one line, jobs done and frames of the running ones.
package final class BatchProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [Int: (label: String, shown: String)] = [:]
    private var finished = 0
    private let total: Int
    private var lastPrint = Date.distantPast
    private var printed = false

    package init(total: Int) {
        self.total = total
    }

    package static func ifTerminal(quiet: Bool, total: Int) -> BatchProgress? {
        (!quiet && isatty(2) != 0) ? BatchProgress(total: total) : nil
    }

    /// Shows how far job `index` has come: its share done, and a bundle's phase.
    func update(index: Int, label: String, progress: RenderProgress) {
        lock.lock()
        defer { lock.unlock() }
        let shown: String
        if progress.phase == .encoding, progress.steps.count == 1, let step = progress.steps.first {
            shown = "\(step.total > 0 ? 100 * step.done / step.total : 0)%"
        } else {
            let percent = "\(Int(100 * progress.fractionCompleted))%"
            shown = progress.phase == .encoding ? percent : "\(progress.phase.rawValue) \(percent)"
        }
        running[index] = (label, shown)
        draw()
    }

    func completed(_ result: BatchResult, done: Int) {
        lock.lock()
        defer { lock.unlock() }
        running[result.job.index] = nil
        finished = done
        draw(force: true)
    }

    private func draw(force: Bool = false) {
        guard force || Date().timeIntervalSince(lastPrint) > 0.1 else { return }
        lastPrint = Date()
        let jobs = running.keys.sorted().map { key -> String in
            let job = running[key]!
            return "\(job.label) \(job.shown)"
        }
        let line = "\r[\(finished)/\(total)] " + jobs.joined(separator: " · ") + "\u{1B}[K"
        StandardStreams.writeError(line)
        printed = true
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if printed { StandardStreams.writeError("\n") }
    }
}
