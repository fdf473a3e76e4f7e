import Foundation
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The render service's state, shared by its routes: the configuration, the registered
/// designs and images, the cache of encoded frames and the render threads.
package final class Studio: Sendable {
    /// The limits and options the service runs with.
    package let configuration: StudioConfiguration
    /// The designs: the built-in presets and the posted ones.
    package let designs: DesignRegistry
    /// Encoded frames by design and address, bounded by their bytes.
    let frames: LRUCache<FrameKey, EncodedFrame>
    /// The frames being rendered now, which other requests for them wait for.
    let rendering = Mutex<[FrameKey: Task<EncodedFrame, any Error>]>([:])
    /// Uploaded images by id, bounded by their decoded bytes.
    let images: LRUCache<String, UploadedImage>
    /// The threads frames, palettes and comparisons are computed on, within the limits.
    package let renders: RenderPool
    /// The render jobs and their files.
    package let jobs: JobManager
    /// Image uploads being read or worked on (``withUploadPlace(_:)``).
    package let uploads = Atomic(0)

    /// A studio with nothing registered yet but the built-in presets.
    ///
    /// - Parameter configuration: the limits and options.
    package init(configuration: StudioConfiguration) {
        self.configuration = configuration
        designs = DesignRegistry(capacity: configuration.maxDesigns)
        frames = LRUCache(capacity: configuration.cacheBytes)
        images = LRUCache(capacity: configuration.imageCacheBytes)
        renders = RenderPool(threadCount: configuration.maxRenders, maxWaiting: configuration.maxWaitingRenders)
        jobs = JobManager(limits: JobLimits(configuration: configuration))
    }

    /// When a render started now must be ready.
    var deadline: ContinuousClock.Instant { .now + configuration.deadline }

    /// Runs CPU-bound `work` on a render thread within the limits.
    ///
    /// - Parameter work: the computation.
    /// - Returns: its result.
    /// - Throws: 503 ``Problem`` (with `Retry-After`) when the service is busy or the
    ///   deadline passes; what `work` throws.
    func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await renders.run(deadline: deadline, work)
        } catch RenderPool.Refusal.busy {
            throw Problem.busy(
                "Every render thread is busy and \(renders.maxWaiting) renders are waiting.",
                retryAfter: configuration.retryAfterSeconds)
        } catch RenderPool.Refusal.deadline {
            throw Problem.busy(
                "The render did not finish within the deadline of \(configuration.deadline).",
                retryAfter: configuration.retryAfterSeconds)
        }
    }
}

/// The studio's part in the server's lifetime: at shutdown (SIGTERM, SIGINT) it stops the
/// jobs and lets the render threads finish what they have and stop.
///
/// A service group stops its services in reverse order, so the server drains its requests
/// before this service hears the graceful shutdown; but a job's event stream ends only when
/// its job does. So the jobs are stopped as soon as the signal arrives, beside the drain,
/// and the graceful shutdown alone (as in the tests) does the same.
struct StudioLifecycle: Service {
    let studio: Studio

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await gracefulShutdown() }
            group.addTask {
                for await _ in signals { return }
            }
            await group.next()
            group.cancelAll()
        }
        studio.renders.shutdown()
        await studio.jobs.shutdown()
        // Returning before the group asks this service to stop counts as a failure.
        try? await gracefulShutdown()
    }
}
