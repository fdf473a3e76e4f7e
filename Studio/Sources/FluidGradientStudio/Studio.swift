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
    /// The JSON bodies being read, bounded in bytes.
    package let bodies: ByteBudget
    /// The image uploads being read or worked on, bounded in bytes.
    package let uploads: ByteBudget
    /// The open connections, under the cap.
    package let connections: ConnectionRegistry

    /// A studio with nothing registered yet but the built-in presets.
    ///
    /// - Parameter configuration: the limits and options.
    package init(configuration: StudioConfiguration) {
        self.configuration = configuration
        designs = DesignRegistry(bytes: configuration.designBytes)
        frames = LRUCache(capacity: configuration.cacheBytes)
        images = LRUCache(capacity: configuration.imageCacheBytes)
        renders = RenderPool(threadCount: configuration.maxRenders, maxWaiting: configuration.maxWaitingRenders)
        jobs = JobManager(limits: JobLimits(configuration: configuration))
        bodies = ByteBudget(
            name: "JSON bodies being read", capacity: configuration.bodyBytes, minimumShare: configuration.maxBodyBytes)
        uploads = ByteBudget(
            name: "image uploads", capacity: configuration.uploadBytes, minimumShare: configuration.maxImageBytes)
        connections = ConnectionRegistry(
            limits: configuration.connections,
            reserve: ConnectionLimits.descriptorReserve(runningJobs: configuration.maxRunningJobs),
            descriptorLimit: { DescriptorLimit.current })
    }

    /// Raises the process's descriptor limit to its hard limit, as servers do (the soft
    /// default of 1024 is for programs that use `select`).
    ///
    /// - Returns: the descriptor limit afterwards.
    package func raiseDescriptorLimit() -> Int { DescriptorLimit.raiseToHardLimit() }

    /// How many connections may be open under the descriptor limit now
    /// (``ConnectionLimits/cap(descriptors:reserve:)``).
    package var connectionCap: Int { connections.cap }

    /// How many connections the descriptor limit leaves room for once the descriptors kept
    /// for the jobs are set aside, whatever ``ConnectionLimits/maxConnections`` is.
    package var descriptorRoom: Int { connections.descriptorRoom }

    /// When a render started now must be ready.
    var deadline: ContinuousClock.Instant { .now + configuration.deadline }

    /// Runs CPU-bound `work` on a render thread within the limits.
    ///
    /// - Parameter work: the computation.
    /// - Returns: its result.
    /// - Throws: 503 ``Problem`` (with `Retry-After`) when the service is busy or the
    ///   deadline passes; what `work` throws.
    func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await compute { _ in try work() }
    }

    /// Runs CPU-bound `work` on a render thread within the limits, giving it a question to
    /// ask as it goes: true once its request's deadline has passed (it was answered 503) or
    /// its task was cancelled, when nobody waits for the result any more.
    ///
    /// - Parameter work: the computation, which stops (throwing) when asked to.
    /// - Returns: its result.
    /// - Throws: as ``compute(_:)``.
    func compute<T: Sendable>(
        _ work: @escaping @Sendable (_ shouldStop: @escaping @Sendable () -> Bool) throws -> T
    ) async throws -> T {
        let deadline = deadline, cancelled = Cancellation()
        let shouldStop: @Sendable () -> Bool = { cancelled.isSet || ContinuousClock.now >= deadline }
        do {
            return try await withTaskCancellationHandler {
                try await renders.run(deadline: deadline) { try work(shouldStop) }
            } onCancel: {
                cancelled.set()
            }
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

/// Whether a request's task was cancelled, for its work on a render thread to ask.
private final class Cancellation: Sendable {
    private let flag = Atomic(false)

    var isSet: Bool { flag.load(ordering: .relaxed) }

    func set() { flag.store(true, ordering: .relaxed) }
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
        // Connections still open at the end of the grace (a stalled body or download) are
        // closed, and requests still waiting for a render answered, so that the server's
        // drain ends.
        let grace = studio.configuration.connections.shutdownGrace
        let closer = Task {
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            studio.connections.closeAll()
            studio.renders.abandon()
        }
        studio.renders.shutdown()
        await studio.jobs.shutdown()
        // Returning before the group asks this service to stop counts as a failure.
        try? await gracefulShutdown()
        closer.cancel()
    }
}
