import Hummingbird
import Synchronization

/// A job's changes as server-sent events: `event: progress` with the job JSON whenever it
/// changed, looked at ten times a second (``JobLimits/eventInterval``), ending after the terminal state.
///
/// The stream reads the job's JSON rather than registering with the manager, so a client
/// that leaves holds nothing there: its stream ends at the next write, which a comment line
/// forces every ``JobLimits/eventHeartbeat`` while the job does not change.
struct JobEventStream: Sendable {
    /// The jobs.
    let jobs: JobManager
    /// The job followed.
    let id: String

    /// The `text/event-stream` response; it ends early when the job is deleted or expires.
    func response() -> Response {
        let body = ResponseBody { [self] writer in
            jobs.openEventStreams.add(1, ordering: .relaxed)
            defer { jobs.openEventStreams.subtract(1, ordering: .relaxed) }
            var last: JobSnapshot?
            var lastWrite = ContinuousClock.now
            while let snapshot = try? jobs.snapshot(of: id) {
                if snapshot != last {
                    let json = String(decoding: try JobSnapshot.encoder.encode(snapshot), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "event: progress\ndata: \(json)\n\n"))
                    guard !snapshot.state.isTerminal else { break }
                    last = snapshot
                    lastWrite = .now
                } else if ContinuousClock.now - lastWrite >= jobs.limits.eventHeartbeat {
                    try await writer.write(ByteBuffer(string: ": waiting\n\n"))
                    lastWrite = .now
                }
                try await Task.sleep(for: jobs.limits.eventInterval)
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}
