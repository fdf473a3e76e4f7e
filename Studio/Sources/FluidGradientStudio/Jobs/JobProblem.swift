/// An RFC 9457 problem about a job: the body of a job route's error response, and the
/// `error` of a failed job's JSON.
package struct JobProblem: Error, Codable, Equatable, Sendable {
    /// The problem type's URL.
    package var type: String
    /// The problem type's short title.
    package var title: String
    /// The HTTP status.
    package var status: Int
    /// One line about this occurrence.
    package var detail: String
    /// Seconds after which the request may succeed (sent as `Retry-After`, not in the body).
    package var retryAfter: Int?

    private enum CodingKeys: String, CodingKey { case type, title, status, detail }

    /// A problem of type `https://fluidgradient.invalid/problems/<slug>`.
    init(slug: String, title: String, status: Int, detail: String, retryAfter: Int? = nil) {
        self.type = Problem.typePrefix + slug
        self.title = title
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }
}

extension JobProblem {
    /// No job has the id (never made, deleted, or expired).
    package static func unknownJob(_ id: String) -> JobProblem {
        JobProblem(
            slug: "unknown-job", title: "Unknown job", status: 404,
            detail: "There is no job \(id); it may have expired."
        )
    }

    /// The job's file was downloaded, cancelled or expired.
    package static func resultGone(_ id: String, because reason: String) -> JobProblem {
        JobProblem(slug: "result-gone", title: "Result gone", status: 410, detail: "The result of job \(id) \(reason).")
    }

    /// The job has no file yet, or failed without one.
    package static func resultNotReady(_ id: String, state: JobState) -> JobProblem {
        JobProblem(
            slug: "result-not-ready", title: "Result not ready", status: 409,
            detail: "Job \(id) is \(state.rawValue) and has no file to download.")
    }

    /// The running jobs and the queue are full, or the server is stopping.
    static func queueFull(running: Int, queued: Int, retryAfter: Int) -> JobProblem {
        JobProblem(
            slug: "queue-full", title: "Job queue full", status: 503,
            detail: "\(running) jobs are running and \(queued) are waiting; try again later.",
            retryAfter: retryAfter)
    }

    /// Too many finished jobs' files wait for their download.
    static func tooManyKept(_ kept: Int, retryAfter: Int) -> JobProblem {
        JobProblem(
            slug: "queue-full", title: "Job queue full", status: 503,
            detail: "\(kept) finished jobs wait for their download; fetch or delete one, or try again when "
                + "the oldest expires (Retry-After).",
            retryAfter: retryAfter)
    }

    /// The client has its share of the jobs or of the files waiting for their download.
    static func clientShare(_ reason: String, retryAfter: Int) -> JobProblem {
        JobProblem(
            slug: "client-share", title: "Too many jobs from this client", status: 503,
            detail: "No new job now: \(reason).", retryAfter: retryAfter)
    }

    /// The job ran past its time limit and was stopped.
    static func timedOut(after limit: Duration) -> JobProblem {
        JobProblem(
            slug: "job-time-limit", title: "The job ran out of time", status: 422,
            detail: "The job did not finish within its time limit of \(limit); make it shorter or smaller.")
    }

    /// The server is shutting down and takes no new job.
    package static let shuttingDown = JobProblem(
        slug: "shutting-down", title: "Shutting down", status: 503,
        detail: "The server is stopping and takes no new job.",
        retryAfter: 30)

    /// The private directory for the jobs' files cannot be made.
    static func noWorkspace(_ error: JobWorkspaceError, retryAfter: Int) -> JobProblem {
        JobProblem(
            slug: "no-job-storage", title: "No room for jobs", status: 503,
            detail: "The server cannot store job files (\(error.reason)); try again later.", retryAfter: retryAfter)
    }

    /// A request the job API cannot take (a limit, an unknown design, a bad field).
    static func unprocessable(slug: String, title: String, detail: String) -> JobProblem {
        JobProblem(slug: slug, title: title, status: 422, detail: detail)
    }

    /// The job failed while rendering or encoding: `detail` is the library error's text.
    static func renderFailed(_ detail: String) -> JobProblem {
        JobProblem(slug: "render-failed", title: "Render failed", status: 500, detail: detail)
    }
}
