extension JobManager {
    /// Stops taking jobs, cancels the queued and running ones, waits for the running ones to
    /// stop (at most ``JobLimits/shutdownGrace``), and removes the private directory.
    ///
    /// - Returns: whether every render stopped within the grace period.
    @discardableResult
    package func shutdown() async -> Bool {
        let (expiries, workspace) = table.withLock { table in
            table.accepting = false
            table.queue = []
            var expiries: [Task<Void, Never>] = []
            for id in table.jobs.keys {
                guard var record = table.jobs[id] else { continue }
                record.task?.cancel()
                if let expiry = record.expiry { expiries.append(expiry) }
                if !record.snapshot.state.isTerminal {
                    record.snapshot.state = .cancelled
                    record.result = .gone(reason: "was cancelled by the server stopping")
                }
                table.jobs[id] = record
            }
            return (expiries, table.workspace)
        }
        for expiry in expiries { expiry.cancel() }
        let stopped = await waitUntilIdle(atMost: limits.shutdownGrace)
        workspace?.remove()
        return stopped
    }

    /// Waits until no render runs, or `timeout` passes.
    ///
    /// - Returns: whether no render runs.
    private func waitUntilIdle(atMost timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.idle() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Returns when no render runs, or at once when the task is cancelled.
    ///
    /// - Returns: whether no render runs.
    private func idle() async -> Bool {
        let key = table.withLock { table in
            defer { table.nextWaiter += 1 }
            return table.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wait = table.withLock { table in
                    guard table.running > 0, !Task.isCancelled else { return false }
                    table.idleWaiters[key] = continuation
                    return true
                }
                if !wait { continuation.resume() }
            }
        } onCancel: {
            table.withLock { $0.idleWaiters.removeValue(forKey: key) }?.resume()
        }
        return table.withLock { $0.running == 0 }
    }
}
