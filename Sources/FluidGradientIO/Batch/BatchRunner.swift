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
package final class BatchRunner: @unchecked Sendable {
    package struct Options: Sendable {
        package var jobs = 1
        package var threadsPerJob = 1
        package var force = false
        package var failFast = false
        package var version = Preset.engineVersion
        package init() {}
    }

    /// Encoders' output depends on their thread count, which ffmpeg otherwise takes from the
    /// core count; a fixed count makes a job's file the same bytes on every machine.
    package static let encoderThreads = 4

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
            if let container = VideoContainer(rawValue: job.format.rawValue) {
                let encoding = VideoEncoding(
                    container: container, hasTransparency: preset.frameSpec.hasTransparency,
                    colorSpace: preset.colorSpace)
                try encoding.check(width: job.width, height: job.height, path: job.output)
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
    private let lock = NSLock()
    private var next = 0
    private var results: [Int: BatchResult] = [:]
    private var stopping = false
    private let progress: BatchProgress?

    package init(jobs: [BatchJob], options: Options, progress: BatchProgress?) {
        self.jobs = jobs
        self.options = options
        self.progress = progress
    }

    /// Runs every job; results come back in the jobs' order.
    package func run() -> [BatchResult] {
        let group = DispatchGroup()
        for _ in 0..<max(1, min(options.jobs, jobs.count)) {
            group.enter()
            Thread { [self] in
                defer { group.leave() }
                while let job = take() {
                    let result = perform(job)
                    finish(result)
                }
            }.start()
        }
        group.wait()
        progress?.finish()
        return jobs.map { job in
            results[job.index]
                ?? BatchResult(
                    job: job, status: Interruption.isRequested ? .interrupted : .cancelled, frames: 0, seconds: 0,
                    message: Interruption.isRequested
                        ? "interrupted before it started" : "not started: an earlier job failed")
        }
    }

    private func take() -> BatchJob? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping, !Interruption.isRequested, next < jobs.count else { return nil }
        next += 1
        return jobs[next - 1]
    }

    private func finish(_ result: BatchResult) {
        lock.lock()
        results[result.job.index] = result
        if result.status == .failed, options.failFast { stopping = true }
        let done = results.count
        lock.unlock()
        progress?.completed(result, done: done)
    }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Renders a file job (a video, an animated image or a still) into its output.
    private func render(_ job: BatchJob, preset: Preset, frames: Int) throws {
        var preset = preset
        if let container = VideoContainer(rawValue: job.format.rawValue) {
            preset.colorSpace = container.colorSpace(for: preset.colorSpace)
        }
        let sink: FrameSink
        let hasTransparency = preset.frameSpec.hasTransparency
        if let container = VideoContainer(rawValue: job.format.rawValue) {
            sink = try VideoSink(
                path: job.output, container: container, width: preset.width, height: preset.height, fps: preset.fps,
                frameCount: frames, hasTransparency: hasTransparency, colorSpace: preset.colorSpace,
                extraOptions: ["-threads", String(BatchRunner.encoderThreads)])
        } else {
            sink = try PNGFileSink(
                path: job.output, depth: 8, alpha: hasTransparency, options: PNGOptions(colorSpace: preset.colorSpace))
        }
        let plan = RenderPlan(
            preset: preset, frames: 0...(frames - 1), time: job.format == .png ? 0 : nil, threads: options.threadsPerJob
        )
        try FramePipeline.run(plan, into: sink, progress: progress?.reporter(for: job)) { self.shouldStop }
    }

    private func perform(_ job: BatchJob) -> BatchResult {
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
            if job.format == .bundle {
                _ = try BundleWriter.write(
                    BundleRequest(
                        preset: preset, directory: job.output, encodeSize: EncodeSize.automatic(for: preset),
                        threads: options.threadsPerJob, generator: "fluidgradient " + options.version,
                        shouldStop: { self.shouldStop }))
            } else {
                try render(job, preset: preset, frames: frames)
            }
            let sidecar = job.sidecar(
                version: options.version, outputBytes: AtomicFile.regularFileSize(BatchRunner.outputFile(job)))!
            try AtomicFile.write(
                Array(sidecar.utf8), to: BatchRunner.sidecarPath(for: job.output), suggestedExtension: "json")
            return BatchResult(job: job, status: .rendered, frames: frames, seconds: Date().timeIntervalSince(start))
        } catch {
            let seconds = Date().timeIntervalSince(start)
            if error is InterruptionError {
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
    private var running: [Int: (label: String, done: Int, total: Int)] = [:]
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

    func reporter(for job: BatchJob) -> ProgressReporting {
        JobReporter(owner: self, index: job.index, label: job.label)
    }

    func update(index: Int, label: String, done: Int, total frames: Int) {
        lock.lock()
        defer { lock.unlock() }
        running[index] = (label, done, frames)
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
            return "\(job.label) \(job.total > 0 ? 100 * job.done / job.total : 0)%"
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

    private final class JobReporter: ProgressReporting, @unchecked Sendable {
        let owner: BatchProgress
        let index: Int
        let label: String

        init(owner: BatchProgress, index: Int, label: String) {
            self.owner = owner
            self.index = index
            self.label = label
        }

        func update(done: Int, total: Int, elapsed: Double) {
            owner.update(index: index, label: label, done: done, total: total)
        }
        func finish() {}
    }
}
