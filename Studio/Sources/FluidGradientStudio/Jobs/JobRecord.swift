/// What the manager keeps about one job.
struct JobRecord {
    /// The job JSON as it stands.
    var snapshot: JobSnapshot
    /// What to render.
    let spec: JobSpec
    /// Who asked for it (their address), for the per-client shares.
    let client: String
    /// When it finished, for how long its file is kept.
    var finishedAt: ContinuousClock.Instant?
    /// The render, once started; cancelling it stops the render.
    var task: Task<Void, Never>?
    /// The job's file, once there is one.
    var result: JobResult = .none
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

/// The manager's mutable state, behind its lock.
struct JobTable {
    var jobs: [String: JobRecord] = [:]
    /// The ids of queued jobs, first to start first.
    var queue: [String] = []
    /// Jobs whose render has not ended (cancelled ones included, until their render stops).
    var running = 0
    /// The memory the running jobs' plans estimate, in bytes.
    var memoryInUse = 0
    /// The private directory, made with the first job.
    var workspace: JobWorkspace?
    /// False once shutting down.
    var accepting = true
    /// The next idle waiter's key.
    var nextWaiter = 0
    /// Shutdown waiting for the running jobs to end.
    var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
}
