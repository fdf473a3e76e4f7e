/// Where a job is in its life.
package enum JobState: String, Codable, Sendable {
    /// Waiting for a running job to end.
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
    package var isTerminal: Bool { self == .done || self == .failed || self == .cancelled }
}

/// One step of a job's phase, as the library reports it: an encode (a bundle has one per
/// codec, and one for its posters), counted in frames, or the files measured.
package struct JobStep: Codable, Equatable, Sendable {
    /// What the step does: a codec's name (`AV1`, `H.264`), `posters` or `files`.
    package var name: String
    /// The frames or files done.
    package var done: Int
    /// The frames or files in all.
    package var total: Int
}

/// The job JSON: what `GET /v1/jobs/{id}` answers and each server-sent event carries.
package struct JobSnapshot: Codable, Equatable, Sendable {
    /// The job's id (32 hex digits).
    package var id: String
    /// Where the job is.
    package var state: JobState
    /// The share of the work done, 0...1, rising; 1 once done.
    package var progress: Double
    /// What a running job is doing: `encoding`, then for a bundle `measuring` and
    /// `packing`; nil before it starts.
    package var phase: String?
    /// The phase's steps, with how far each has come.
    package var steps: [JobStep]?
    /// What the job produces.
    package var format: JobFormat
    /// The downloaded file's name, once done.
    package var file: String?
    /// The file's size in bytes, once done.
    package var bytes: Int?
    /// Why the job failed: a problem object as the API's errors are.
    package var error: JobProblem?
}
