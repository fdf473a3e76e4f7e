import FluidGradient
import Foundation
import Synchronization

extension OutputWriter {
    /// Runs ``write(_:hooks:)`` on a thread of its own, so that its blocking work never
    /// holds one of the concurrency pool's threads; the task's cancellation stops it.
    ///
    /// - Parameters:
    ///   - request: what to write.
    ///   - events: hears the write's events; finished when the write ends.
    /// - Returns: what was written.
    /// - Throws: what ``write(_:hooks:)`` throws, as a ``RenderError``.
    package static func run(
        _ request: WriteRequest, events: AsyncStream<RenderEvent>.Continuation?
    ) async throws(RenderError) -> RenderSummary {
        let path = request.output.path
        guard !Task.isCancelled else {
            events?.finish()
            throw .interrupted(InterruptionError(leftBehind: .nothing))
        }
        let stop = StopSignal()
        let hooks = WriteHooks(emit: { event in events?.yield(event) }, shouldStop: { stop.isSet })
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let thread = Thread {
                        let result = Result { try write(request, hooks: hooks) }
                        events?.finish()
                        continuation.resume(with: result)
                    }
                    thread.name = "fluidgradient write"
                    thread.start()
                }
            } onCancel: {
                stop.set()
            }
        } catch {
            throw RenderError(error, path: path)
        }
    }
}

/// A stop asked for from one thread and seen by another.
package final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    /// Whether a stop was asked for.
    package var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Asks for a stop.
    package func set() { flag.store(true, ordering: .releasing) }
}
