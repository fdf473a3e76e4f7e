import Foundation

/// A task executor with one thread of its own, for a test that must react to events while
/// other suites' synchronous work (commands they run and wait for) holds every thread of the
/// cooperative pool, as many as there are cores.
///
/// A test that cancels a write on its first progress event, reading the events on the pool,
/// could be held off until the write was over, and saw no cancellation at all.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// One for the whole test process; its thread waits for work between tests.
    static let shared = OwnThreadExecutor()

    private let condition = NSCondition()
    private var waiting: [UnownedJob] = []

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "OwnThreadExecutor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        waiting.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs the jobs in the order they came, for ever.
    private func serve() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            let job = waiting.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
