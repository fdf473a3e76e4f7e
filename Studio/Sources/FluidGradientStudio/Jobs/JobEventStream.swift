import Hummingbird

/// A job's changes as server-sent events: `event: progress` with the job JSON, at most ten a
/// second (the newest change wins), ending after the terminal state.
struct JobEventStream: Sendable {
    /// The job's changes, from ``JobManager/events(of:)``.
    let events: AsyncStream<JobSnapshot>
    /// The least time between two events.
    var interval: Duration = .milliseconds(100)

    /// The `text/event-stream` response. A client that leaves ends the stream at the next
    /// write, which drops its place among the job's observers.
    func response() -> Response {
        let events = events
        let interval = interval
        let body = ResponseBody { writer in
            for await snapshot in events {
                let json = String(decoding: try JobSnapshot.encoder.encode(snapshot), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "event: progress\ndata: \(json)\n\n"))
                if !snapshot.state.isTerminal { try await Task.sleep(for: interval) }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}
