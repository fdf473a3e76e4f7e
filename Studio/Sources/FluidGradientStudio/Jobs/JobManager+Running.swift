import FluidGradientIO
import Foundation

extension JobManager {
    /// Starts queued jobs, first come first served, while fewer than
    /// ``JobLimits/maxRunning`` run and the first one's planned memory fits in what the
    /// running ones leave of the budget; each runs as a task of its own. The library renders
    /// on threads of its own, so the task only waits.
    func startQueued() {
        table.withLock { table in
            guard let workspace = table.workspace else { return }
            while table.running < limits.maxRunning, let id = table.queue.first {
                guard var record = table.jobs[id] else {
                    table.queue.removeFirst()
                    continue
                }
                let memory = record.spec.plan?.memoryBytes ?? 0
                guard table.running == 0 || table.memoryInUse + memory <= limits.memoryBytes else { break }
                table.queue.removeFirst()
                record.snapshot.state = .running
                table.running += 1
                table.memoryInUse += memory
                let spec = record.spec
                // Made and kept under the lock, so that a cancel finds the task to cancel.
                record.task = Task { [self] in await run(id, spec, in: workspace) }
                table.jobs[id] = record
            }
        }
    }

    /// The body of a job's task: renders (stopped by cancelling the task, or at the time
    /// limit), then records how it ended.
    private func run(_ id: String, _ spec: JobSpec, in workspace: JobWorkspace) async {
        let outcome: Result<String, any Error>
        do {
            try Task.checkCancellation()
            let directory = try workspace.makeDirectory(for: id)
            let render = Task { [self] in
                try await JobRenderer.render(spec, in: directory, niceness: limits.niceness) { [self] in
                    report(id, $0)
                }
            }
            let timer = Task { [limit = limits.timeLimit] in
                guard (try? await Task.sleep(for: limit)) != nil else { return false }
                render.cancel()
                return true
            }
            let result = await withTaskCancellationHandler {
                await render.result
            } onCancel: {
                render.cancel()
            }
            timer.cancel()
            let timedOut = await timer.value && !Task.isCancelled
            outcome = result.mapError { timedOut ? JobTimedOut() : $0 }
        } catch {
            outcome = .failure(error)
        }
        finish(id, outcome, in: workspace, memory: spec.plan?.memoryBytes ?? 0)
    }

    /// Records the progress of a running job: its phase and steps, and its share done in
    /// steps of at least a percent (or at a new phase, or at the end), so that its event
    /// stream sends a few hundred changes at most.
    private func report(_ id: String, _ progress: RenderProgress) {
        let phase = progress.phase.rawValue, share = progress.fractionCompleted
        table.withLock { table in
            guard var record = table.jobs[id], record.snapshot.state == .running,
                phase != record.snapshot.phase || share >= record.snapshot.progress + 0.01
                    || (share == 1 && record.snapshot.progress < 1)
            else { return }
            record.snapshot.progress = max(record.snapshot.progress, share)
            record.snapshot.phase = phase
            record.snapshot.steps = progress.steps.map { JobStep(name: $0.name, done: $0.done, total: $0.total) }
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
    /// - Returns: 422 for what the library's error says is its input (a preset out of
    ///   bounds, a size an encoder cannot take), 500 for a render or encode that failed.
    package static func problem(for error: any Error, in directory: String) -> JobProblem {
        let text = Problem.removingServerPaths(
            String(describing: error).replacingOccurrences(of: directory + "/", with: ""))
        guard (error as? any FluidGradientError)?.isInputError == true else { return JobProblem.renderFailed(text) }
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

/// A job's render was stopped at its time limit.
struct JobTimedOut: Error {}
