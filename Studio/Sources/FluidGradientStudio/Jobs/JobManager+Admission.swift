extension JobManager {
    /// Whether a new job of `client` may be taken: the server accepts jobs, its queue has a
    /// place, the client has fewer than its share queued or running, and fewer finished
    /// files than the limit (and than the client's share) wait for their download.
    ///
    /// - Throws: ``JobProblem`` 503, whose `Retry-After` is the time until a place can free:
    ///   the queue's usual wait, or the time until the oldest waiting file expires.
    func admit(client: String, in table: JobTable) throws(JobProblem) {
        guard table.accepting else { throw JobProblem.shuttingDown }
        let waiting = table.queue.count
        guard waiting < limits.maxQueued || table.running + waiting < limits.maxRunning else {
            throw JobProblem.queueFull(running: table.running, queued: waiting, retryAfter: limits.retryAfter)
        }
        let active = table.jobs.values.count { $0.client == client && !$0.snapshot.state.isTerminal }
        guard active < limits.perClientJobs else {
            throw JobProblem.clientShare(
                "this client has \(active) jobs queued or running, its share of \(limits.perClientJobs)",
                retryAfter: limits.retryAfter)
        }
        let kept = table.jobs.values.filter { if case .ready = $0.result { true } else { false } }
        guard kept.count < limits.maxKept else {
            throw JobProblem.tooManyKept(kept.count, retryAfter: secondsUntilOneExpires(of: kept))
        }
        let mine = kept.filter { $0.client == client }
        guard mine.count < limits.perClientKept else {
            throw JobProblem.clientShare(
                "this client has \(mine.count) finished files waiting for their download, its share of "
                    + "\(limits.perClientKept); fetch or delete one",
                retryAfter: secondsUntilOneExpires(of: mine))
        }
    }

    /// The whole seconds (at least 1) until the first of `records`' files expires.
    private func secondsUntilOneExpires(of records: [JobRecord]) -> Int {
        let now = ContinuousClock.now
        let left = records.compactMap { $0.finishedAt.map { $0 + limits.expiry - now } }.min() ?? limits.expiry
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return max(1, Int(seconds.rounded(.up)))
    }
}
