import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The thread a job's task prefers, at a lower scheduling priority than the rest of the
/// service, so that a job's renders and encodes yield the cores to the preview's frames.
///
/// On Linux the nice value belongs to a thread, and a thread or process inherits it from
/// the thread that starts it. The library starts a render's threads (and their ffmpeg
/// children) from the task that asks for the render, so a job that runs its render with
/// this executor as its preference has all of its work at ``niceness``: an idle core
/// still goes to the job, but a preview frame that wants one takes it first. The bytes do
/// not change: priority decides only when a thread runs.
package final class JobExecutor: TaskExecutor, Sendable {
    private static let executors = Mutex<[Int32: JobExecutor]>([:])

    /// The nice value of the thread and of everything it starts (0 to 19; more is later).
    package let niceness: Int32
    private let queue = Mutex<[UnownedJob]>([])
    private let wakeup = NSCondition()

    /// The one executor of `niceness`, its thread started with the first call; its thread
    /// only starts renders and zips, so the jobs share it.
    ///
    /// - Parameter niceness: the nice value, from 0 (the service's own) to 19 (the lowest).
    /// - Returns: the executor.
    package static func shared(niceness: Int32) -> JobExecutor {
        executors.withLock { executors in
            if let executor = executors[niceness] { return executor }
            let executor = JobExecutor(niceness: niceness)
            executors[niceness] = executor
            return executor
        }
    }

    private init(niceness: Int32) {
        precondition((0...19).contains(niceness), "a nice value from 0 to 19")
        self.niceness = niceness
        let thread = Thread { [self] in
            Self.setOwnNiceness(niceness)
            serve()
        }
        thread.name = "job-executor"
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        wakeup.withLock { queue.withLock { $0.append(job) } }
        wakeup.signal()
    }

    private func serve() {
        while true {
            let jobs = wakeup.withLock {
                while queue.withLock({ $0.isEmpty }) { wakeup.wait() }
                return queue.withLock { queue in
                    defer { queue.removeAll(keepingCapacity: true) }
                    return queue
                }
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// Sets the calling thread's nice value: `PRIO_PROCESS` with 0 names the calling thread
    /// alone on Linux. Raising it needs no privilege; a failure leaves the thread as it was.
    private static func setOwnNiceness(_ niceness: Int32) {
        #if os(Linux)
            let result = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            assert(result == 0, "setpriority failed: errno \(errno)")
        #endif
    }
}
