import FluidGradient
import Foundation

/// Turns the frames the pipelines write, and a bundle's later phases, into
/// ``RenderProgress`` events. Every update counts one frame of its step, so several
/// pipelines at once (a bundle's encodes) report together; events are sent under a lock,
/// so the counts they carry only rise.
package final class EventProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let emit: @Sendable (RenderProgress) -> Void
    private let weights: [RenderProgress.Phase: Double]
    private var phase = RenderProgress.Phase.encoding
    private var steps: [RenderProgress.Step]
    /// The share of the whole work done before the current phase began.
    private var before = 0.0

    /// - Parameters:
    ///   - steps: the encodes' names and their frames in all.
    ///   - weights: each phase's share of the whole work; a write without a phase's entry
    ///     has no such phase.
    ///   - emit: hears each report.
    package init(
        steps: [(name: String, total: Int)], weights: [RenderProgress.Phase: Double] = [.encoding: 1],
        emit: @escaping @Sendable (RenderProgress) -> Void
    ) {
        self.steps = steps.map { RenderProgress.Step(name: $0.name, done: 0, total: $0.total) }
        self.weights = weights
        self.emit = emit
    }

    /// A reporter for one pipeline, which counts into step `index`.
    package func reporter(for index: Int) -> ProgressReporting { StepReporter(owner: self, index: index) }

    /// Adds one to step `index` of the current phase, and reports.
    package func advance(_ index: Int) {
        lock.withLock {
            steps[index].done += 1
            send()
        }
    }

    /// Ends the current phase and starts `next` with `steps`, and reports.
    package func begin(_ next: RenderProgress.Phase, steps: [(name: String, total: Int)] = []) {
        lock.withLock {
            before += weights[phase] ?? 0
            phase = next
            self.steps = steps.map { RenderProgress.Step(name: $0.name, done: 0, total: $0.total) }
            send()
        }
    }

    /// Reports the work complete: the current phase's steps done, and the whole share 1.
    package func complete() {
        lock.withLock {
            before = 1
            for index in steps.indices { steps[index].done = steps[index].total }
            send()
        }
    }

    /// Sends the progress as it stands; called under the lock.
    private func send() {
        let done = steps.map(\.done).reduce(0, +), total = steps.map(\.total).reduce(0, +)
        let share = total > 0 ? Double(done) / Double(total) : 0
        let fraction = min(1, before + (weights[phase] ?? 0) * share)
        emit(RenderProgress(phase: phase, steps: steps, fractionCompleted: fraction))
    }

    private final class StepReporter: ProgressReporting, @unchecked Sendable {
        let owner: EventProgress
        let index: Int

        init(owner: EventProgress, index: Int) {
            self.owner = owner
            self.index = index
        }

        func update(done _: Int, total _: Int, elapsed _: Double) { owner.advance(index) }
        func finish() {}
    }
}
