import Foundation
import Synchronization

/// Runs render jobs: at most ``JobLimits/maxRunning`` at once, each a task of its own, with a
/// bounded queue behind them, and keeps their files in a private ``JobWorkspace`` until they
/// are downloaded, cancelled or expired.
///
/// Every method is safe to call from any thread; none blocks on a render.
package final class JobManager: Sendable {
    /// The limits and capacity this manager applies.
    package let limits: JobLimits
    /// Where the private directory is made.
    private let parent: String?
    let table = Mutex(JobTable())
    /// How many event streams are open, for checking that a client that left holds none.
    let openEventStreams = Atomic(0)

    /// Makes a manager; its private directory is made with the first job.
    ///
    /// - Parameters:
    ///   - limits: frames, pixels, running jobs, queue and expiry.
    ///   - parent: where to make the private directory; the system's temporary directory when nil.
    package init(limits: JobLimits = JobLimits(), parent: String? = nil) {
        self.limits = limits
        self.parent = parent
    }

    /// The private directory holding the jobs' files, once the first job made it.
    package var workspace: JobWorkspace? { table.withLock { $0.workspace } }

    /// Queues a job, and starts it at once when fewer than the limit run and its memory fits.
    ///
    /// - Parameters:
    ///   - spec: the checked request.
    ///   - client: who asks (their address), for the per-client shares.
    /// - Returns: the new job's JSON (queued or running).
    /// - Throws: ``JobProblem`` 503 when the queue is full, the client has its share of the
    ///   jobs or of the files waiting, too many finished files wait for their download, the
    ///   server is stopping, or the private directory cannot be made.
    package func submit(_ spec: JobSpec, client: String = "-") throws(JobProblem) -> JobSnapshot {
        let id = Self.makeID()
        try table.withLock { table throws(JobProblem) in
            try admit(client: client, in: table)
            if table.workspace == nil {
                do throws(JobWorkspaceError) {
                    table.workspace = try JobWorkspace(parent: parent)
                } catch {
                    throw JobProblem.noWorkspace(error, retryAfter: limits.retryAfter)
                }
            }
            let snapshot = JobSnapshot(id: id, state: .queued, progress: 0, format: spec.format)
            table.jobs[id] = JobRecord(snapshot: snapshot, spec: spec, client: client)
            table.queue.append(id)
        }
        startQueued()
        return try snapshot(of: id)
    }

    /// The job JSON of job `id`.
    ///
    /// - Throws: ``JobProblem`` 404 for an unknown job.
    package func snapshot(of id: String) throws(JobProblem) -> JobSnapshot {
        guard let snapshot = table.withLock({ $0.jobs[id]?.snapshot }) else { throw JobProblem.unknownJob(id) }
        return snapshot
    }

    /// Cancels job `id` when it has not ended (a running render stops, and its task removes
    /// its files), or deletes it with its file when it has.
    ///
    /// - Throws: ``JobProblem`` 404 for an unknown job.
    package func cancel(_ id: String) throws(JobProblem) {
        let deleted = try table.withLock { table throws(JobProblem) in
            guard var record = table.jobs[id] else { throw JobProblem.unknownJob(id) }
            if record.snapshot.state.isTerminal {
                record.expiry?.cancel()
                table.jobs[id] = nil
                return true
            }
            record.task?.cancel()
            table.queue.removeAll { $0 == id }
            record.snapshot.state = .cancelled
            record.result = .gone(reason: "was cancelled")
            table.jobs[id] = record
            return false
        }
        if deleted { removeFiles(of: id) } else { scheduleExpiry(of: id) }
    }

    /// How many renders have not ended (cancelled jobs' included, until they stop).
    package var runningCount: Int { table.withLock { $0.running } }

    /// How many event streams are open.
    package var openEventStreamCount: Int { openEventStreams.load(ordering: .relaxed) }

    /// Removes job `id`'s directory, if there is one.
    func removeFiles(of id: String) {
        workspace?.removeDirectory(for: id)
    }

    /// A random job id: 32 hex digits, not guessable from other ids.
    private static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
