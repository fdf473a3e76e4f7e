import Foundation

/// Progress handed to a caller's callback as (frames done, total). Every update of every
/// pipeline it is given to counts one frame, so several pipelines running at once (a
/// bundle's encodes) share one count; the callback is called under a lock, so the counts
/// it sees rise by one each time.
package final class CallbackProgress: ProgressReporting, @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let total: Int
    private let report: @Sendable (Int, Int) -> Void

    /// - Parameters:
    ///   - total: the frames all the pipelines will write.
    ///   - report: called after each frame with the frames written so far and `total`.
    package init(total: Int, report: @escaping @Sendable (Int, Int) -> Void) {
        self.total = total
        self.report = report
    }

    package func update(done _: Int, total _: Int, elapsed _: Double) {
        lock.withLock {
            done += 1
            report(done, total)
        }
    }

    package func finish() {}
}
