import Foundation

/// The limits a job must stay within, and the server's job capacity.
package struct JobLimits: Sendable {
    /// Frames per job (duration x fps).
    package var maxFrames: Int = 3600
    /// Pixels per frame (width x height of the design).
    package var maxPixels: Int = 3840 * 2160
    /// Jobs rendering at once.
    package var maxRunning: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Jobs waiting for a running one to end; a job past it is refused with 503.
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

    /// The defaults: 3600 frames, 3840x2160 pixels, one running job per core, 8 queued,
    /// 16 files waiting for their download, each kept 15 minutes.
    package init() {}
}

extension JobLimits {
    /// The job limits of the service's configuration.
    ///
    /// - Parameter configuration: the service's limits.
    init(configuration: StudioConfiguration) {
        self.init()
        maxFrames = configuration.maxJobFrames
        maxPixels = configuration.maxPixels
        maxRunning = configuration.maxRunningJobs
        maxQueued = configuration.maxQueuedJobs
        expiry = configuration.jobExpiry
    }
}
