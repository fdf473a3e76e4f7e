extension JobManager {
    /// A finished job's file, claimed for sending.
    package struct ResultFile: Sendable {
        /// Where the file is.
        package let path: String
        /// The name the client saves it as.
        package let name: String
        /// Its `Content-Type`.
        package let contentType: String
    }

    /// Claims job `id`'s file for sending: a second claim is refused until
    /// ``resultSent(_:completely:)`` says how the sending ended.
    ///
    /// - Parameters:
    ///   - id: the job.
    ///   - claiming: false to only look (for HEAD, whose body is never sent).
    /// - Returns: the file.
    /// - Throws: ``JobProblem`` 404 for an unknown job, 409 when the job has no file (yet),
    ///   410 when the file was downloaded or cancelled.
    package func claimResult(of id: String, claiming: Bool = true) throws(JobProblem) -> ResultFile {
        try table.withLock { table throws(JobProblem) in
            guard var record = table.jobs[id] else { throw JobProblem.unknownJob(id) }
            switch record.result {
            case .ready(let path):
                if claiming {
                    record.result = .sending(path: path)
                    table.jobs[id] = record
                }
                let format = record.snapshot.format
                return ResultFile(path: path, name: record.spec.fileName, contentType: format.contentType)
            case .sending: throw JobProblem.resultGone(id, because: "is being downloaded")
            case .gone(let reason): throw JobProblem.resultGone(id, because: reason)
            case .none: throw JobProblem.resultNotReady(id, state: record.snapshot.state)
            }
        }
    }

    /// Ends the sending of job `id`'s file: once sent completely it is removed; otherwise it
    /// may be downloaded again.
    ///
    /// - Parameters:
    ///   - id: the job.
    ///   - completely: whether the whole file reached the client.
    package func resultSent(_ id: String, completely: Bool) {
        let remove = table.withLock { table in
            guard var record = table.jobs[id], case .sending(let path) = record.result else { return false }
            record.result = completely ? .gone(reason: "was downloaded") : .ready(path: path)
            table.jobs[id] = record
            return completely
        }
        if remove { removeFiles(of: id) }
    }
}
