import FluidGradient
import FluidGradientIO
import Foundation

extension JobManager {
    /// Starts queued jobs, first come first served, while threads are free and the first
    /// one's planned memory fits in what the running ones leave of the budget; each runs on
    /// a thread of its own.
    func startQueued() {
        let starting = table.withLock { table -> [(String, JobSpec, StopFlag, JobWorkspace)] in
            guard let workspace = table.workspace else { return [] }
            var starting: [(String, JobSpec, StopFlag, JobWorkspace)] = []
            while table.running < limits.maxRunning, let id = table.queue.first {
                guard var record = table.jobs[id] else {
                    table.queue.removeFirst()
                    continue
                }
                let memory = record.spec.plan?.memoryBytes ?? 0
                guard table.running == 0 || table.memoryInUse + memory <= limits.memoryBytes else { break }
                table.queue.removeFirst()
                record.snapshot.state = .running
                table.jobs[id] = record
                table.running += 1
                table.memoryInUse += memory
                starting.append((id, record.spec, record.stop, workspace))
            }
            return starting
        }
        for (id, spec, stop, workspace) in starting {
            let thread = Thread { [self] in run(id, spec, stop, in: workspace) }
            thread.name = "job " + id
            thread.start()
        }
    }

    /// The body of a job's thread: renders (stopped by a cancel, or at the time limit),
    /// then records how it ended.
    private func run(_ id: String, _ spec: JobSpec, _ stop: StopFlag, in workspace: JobWorkspace) {
        let outcome: Result<String, any Error>
        let end = ContinuousClock.now + limits.timeLimit
        do {
            guard !stop.isSet else { throw JobStopped() }
            let directory = try workspace.makeDirectory(for: id)
            let path = try JobRenderer.render(
                spec, in: directory, progress: { [self] in report(id, done: $0, of: $1) },
                shouldStop: { stop.isSet || ContinuousClock.now >= end })
            outcome = .success(path)
        } catch {
            outcome = .failure(!stop.isSet && ContinuousClock.now >= end ? JobTimedOut() : error)
        }
        finish(id, outcome, in: workspace, memory: spec.plan?.memoryBytes ?? 0)
    }

    /// Records the progress of a running job, in steps of at least a percent.
    private func report(_ id: String, done: Int, of total: Int) {
        let progress = total > 0 ? min(1, Double(done) / Double(total)) : 0
        table.withLock { table in
            guard var record = table.jobs[id], record.snapshot.state == .running,
                progress >= record.snapshot.progress + 0.01 || (progress == 1 && record.snapshot.progress < 1)
            else { return }
            record.snapshot.progress = progress
            table.jobs[id] = record
        }
    }

    /// Records a job's end: its file, or its error; a cancelled job's files are removed.
    private func finish(
        _ id: String, _ outcome: Result<String, any Error>, in workspace: JobWorkspace, memory: Int
    ) {
        let bytes = (try? outcome.get()).flatMap {
            try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int
        }
        let (keep, idle) = table.withLock { table -> (Bool, [CheckedContinuation<Void, Never>]) in
            table.running -= 1
            table.memoryInUse -= memory
            let idle = table.running == 0 ? Array(table.idleWaiters.values) : []
            if table.running == 0 { table.idleWaiters = [:] }
            guard var record = table.jobs[id], record.snapshot.state == .running else { return (false, idle) }
            record.finishedAt = .now
            switch outcome {
            case .success(let path):
                record.snapshot.state = .done
                record.snapshot.progress = 1
                record.snapshot.file = record.spec.fileName
                record.snapshot.bytes = bytes
                record.result = .ready(path: path)
            case .failure(let error):
                record.snapshot.state = .failed
                record.snapshot.error =
                    error is JobTimedOut
                    ? JobProblem.timedOut(after: limits.timeLimit)
                    : Self.problem(for: error, in: workspace.directory(for: id))
            }
            table.jobs[id] = record
            return (record.snapshot.state == .done, idle)
        }
        for waiter in idle { waiter.resume() }
        if !keep { workspace.removeDirectory(for: id) }
        scheduleExpiry(of: id)
        startQueued()
    }

    /// The problem a failed job reports: the library error's one line, with the job's
    /// directory left out of any path it quotes.
    ///
    /// - Parameters:
    ///   - error: what the render threw.
    ///   - directory: the job's directory.
    /// - Returns: 422 for what the library blames on its input (a preset out of bounds, a
    ///   size an encoder cannot take), 500 for a render or encode that failed.
    package static func problem(for error: any Error, in directory: String) -> JobProblem {
        let text = Problem.removingServerPaths(
            String(describing: error).replacingOccurrences(of: directory + "/", with: ""))
        guard isInputError(error) else { return JobProblem.renderFailed(text) }
        return JobProblem.unprocessable(slug: "job-refused", title: "The job cannot be rendered as asked", detail: text)
    }

    /// Removes job `id` (and its file) once ``JobLimits/expiry`` has passed.
    func scheduleExpiry(of id: String) {
        let delay = limits.expiry
        let task = Task { [weak self] in
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            self?.expire(id)
        }
        let kept = table.withLock { table in
            guard table.jobs[id] != nil else { return false }
            table.jobs[id]?.expiry?.cancel()
            table.jobs[id]?.expiry = task
            return true
        }
        if !kept { task.cancel() }
    }

    /// Forgets job `id` and removes its files.
    private func expire(_ id: String) {
        _ = table.withLock { $0.jobs.removeValue(forKey: id) }
        removeFiles(of: id)
    }
}
