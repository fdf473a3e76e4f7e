import FluidGradient
import Foundation

/// The limits a job must stay within, and the server's job capacity.
package struct JobLimits: Sendable {
    /// Frames per job (duration x fps).
    package var maxFrames: Int = 3600
    /// Pixels per frame (width x height of the design).
    package var maxPixels: Int = 3840 * 2160
    /// Pixels × frames per job (the design's size × the job's frames); more is 422.
    package var maxPixelFrames: Int = 8_000_000_000
    /// The bytes the running jobs may use at once, by their plans' estimates
    /// (``JobPlan/memoryBytes``): a job waits in the queue until its estimate fits, and one
    /// whose estimate is over all of it is refused with 422.
    package var memoryBytes: Int = 4096 << 20
    /// How long a job may run; one still running then is stopped and fails.
    package var timeLimit: Duration = .seconds(30 * 60)
    /// The nice value (0 to 19) the jobs render at: their threads and their ffmpeg
    /// children run from ``JobExecutor/shared(niceness:)``.
    package var niceness: Int32 = 19
    /// Jobs rendering at once, each on its own thread.
    package var maxRunning: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Jobs waiting for a thread; a job past it is refused with 503.
    package var maxQueued: Int = 8
    /// Finished jobs whose file waits for its download; a new job past it is refused with 503
    /// until one is downloaded, deleted or expires, so that files nobody fetches cannot fill
    /// the disk.
    package var maxKept: Int = 16
    /// How long a finished job (and its file) is kept.
    package var expiry: Duration = .seconds(15 * 60)
    /// The `Retry-After` seconds of a refusal for a full queue.
    package var retryAfter: Int = 10
    /// How often an event stream looks at its job: at most this many events a second.
    package var eventInterval: Duration = .milliseconds(100)
    /// The longest an event stream goes without a write, so that a client that left is noticed.
    package var eventHeartbeat: Duration = .seconds(15)
    /// How long shutting down waits for running jobs to stop.
    package var shutdownGrace: Duration = .seconds(5)

    /// The defaults: 3600 frames, 3840x2160 pixels, 8 billion pixels × frames, 4 GiB of
    /// encoder memory, 30 minutes a job at nice 19, one running job per core, 8 queued, 16
    /// files waiting for their download, each kept 15 minutes.
    package init() {}

    /// The jobs one client may have queued or running at once: half the server's running
    /// and queued places, at least one, so that one client cannot take them all.
    package var perClientJobs: Int { max(1, (maxRunning + maxQueued) / 2) }

    /// The finished files one client may have waiting for their download: half of
    /// ``maxKept``, at least one.
    package var perClientKept: Int { max(1, maxKept / 2) }

    /// Why `preset` cannot be a job (or a design): more frames than ``maxFrames`` or more
    /// pixels a frame than ``maxPixels``; nil when it can.
    ///
    /// - Parameter preset: the design, with the job's duration and fps.
    /// - Returns: the 422 problem, or nil.
    package func refusal(of preset: Preset) -> JobProblem? {
        let frames = preset.duration * preset.fps
        guard frames < Double(maxFrames) + 0.5 else {
            return JobProblem.unprocessable(
                slug: "too-many-frames", title: "Too many frames",
                detail: "The job has \(JobRequest.format(frames)) frames (duration x fps); the limit is \(maxFrames).")
        }
        guard preset.width.multipliedReportingOverflow(by: preset.height).partialValue <= maxPixels else {
            return JobProblem.unprocessable(
                slug: "too-many-pixels", title: "Too many pixels",
                detail: "The design is \(preset.width)x\(preset.height); the limit is \(maxPixels) pixels a frame.")
        }
        return nil
    }
}

extension JobLimits {
    /// The job limits of the service's configuration.
    ///
    /// - Parameter configuration: the service's limits.
    init(configuration: StudioConfiguration) {
        self.init()
        maxFrames = configuration.maxJobFrames
        maxPixels = configuration.maxPixels
        maxPixelFrames = configuration.maxJobPixelFrames
        memoryBytes = configuration.jobMemoryBytes
        timeLimit = configuration.jobTimeLimit
        niceness = configuration.jobNiceness
        maxRunning = configuration.maxRunningJobs
        maxQueued = configuration.maxQueuedJobs
        expiry = configuration.jobExpiry
    }
}
