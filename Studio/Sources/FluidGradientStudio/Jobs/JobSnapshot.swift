/// Where a job is in its life.
public enum JobState: String, Codable, Sendable {
    /// Waiting for a free render thread.
    case queued
    /// Rendering and encoding.
    case running
    /// Finished; its file waits to be downloaded.
    case done
    /// Stopped by an error, kept in the job's `error`.
    case failed
    /// Stopped by a client or by the server shutting down.
    case cancelled

    /// Whether the job has ended (done, failed or cancelled).
    public var isTerminal: Bool { self == .done || self == .failed || self == .cancelled }
}

/// The job JSON: what `GET /v1/jobs/{id}` answers and each server-sent event carries.
package struct JobSnapshot: Codable, Equatable, Sendable {
    /// The job's id (32 hex digits).
    package var id: String
    /// Where the job is.
    public var state: JobState
    /// The share of frames encoded, 0...1; 1 once done.
    public var progress: Double
    /// What the job produces.
    package var format: JobFormat
    /// The downloaded file's name, once done.
    package var file: String?
    /// The file's size in bytes, once done.
    package var bytes: Int?
    /// Why the job failed: a problem object as the API's errors are.
    package var error: JobProblem?
}
