import Synchronization

/// What the manager keeps about one job.
struct JobRecord {
    /// The job JSON as it stands.
    var snapshot: JobSnapshot
    /// What to render.
    let spec: JobSpec
    /// Set to stop the job's render.
    let stop = StopFlag()
    /// The job's file, once there is one.
    var result: JobResult = .none
    /// The event streams following the job.
    var observers: [Int: AsyncStream<JobSnapshot>.Continuation] = [:]
    /// Removes the finished job when its time is up.
    var expiry: Task<Void, Never>?
}

/// Where a job's file is.
enum JobResult {
    /// No file (yet).
    case none
    /// At `path`, ready to send.
    case ready(path: String)
    /// Being sent from `path`.
    case sending(path: String)
    /// Removed, for the `reason` the 410 problem gives ("was downloaded").
    case gone(reason: String)
}

/// A flag the render thread polls and the request handlers set.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Whether the job was asked to stop.
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Asks the job to stop.
    func set() { flag.store(true, ordering: .releasing) }
}

/// The manager's mutable state, behind its lock.
struct JobTable {
    var jobs: [String: JobRecord] = [:]
    /// The ids of queued jobs, first to start first.
    var queue: [String] = []
    /// Jobs whose thread has not ended (cancelled ones included, until their render stops).
    var running = 0
    /// The private directory, made with the first job.
    var workspace: JobWorkspace?
    /// False once shutting down.
    var accepting = true
    /// The next observer's key.
    var nextObserver = 0
    /// Shutdown waiting for the running jobs to end.
    var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]

    /// Sends `record`'s snapshot to its observers; when terminal, detaches them and returns
    /// them to be finished outside the lock.
    static func publish(_ record: inout JobRecord) -> [AsyncStream<JobSnapshot>.Continuation] {
        for observer in record.observers.values { observer.yield(record.snapshot) }
        guard record.snapshot.state.isTerminal else { return [] }
        defer { record.observers = [:] }
        return Array(record.observers.values)
    }
}
