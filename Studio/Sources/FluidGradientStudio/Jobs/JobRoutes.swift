import FluidGradientIO
import Foundation
import Hummingbird

/// The `/v1/jobs` routes: start a job, read it, follow it, download its file, cancel it.
package struct JobRoutes: Sendable {
    /// The jobs.
    let jobs: JobManager
    /// Reads a request's JSON body within the service's limits and budget.
    let body: @Sendable (Request, StudioContext) async throws -> Data
    /// Who sent a request, for the per-client shares.
    let client: @Sendable (Request, StudioContext) -> String
    /// Looks a design up by its id.
    let design: @Sendable (String) -> Preset?
    /// How long a download's last bytes may take to be acknowledged by the client.
    let deliveryTimeout: Duration

    /// The routes of `jobs`, reading bodies with `body`, telling clients apart with `client`
    /// and finding designs with `design`; a download counts as complete once the client's
    /// side acknowledged its last byte, within `deliveryTimeout`.
    package init(
        jobs: JobManager, body: @escaping @Sendable (Request, StudioContext) async throws -> Data,
        client: @escaping @Sendable (Request, StudioContext) -> String,
        design: @escaping @Sendable (String) -> Preset?, deliveryTimeout: Duration
    ) {
        self.jobs = jobs
        self.body = body
        self.client = client
        self.design = design
        self.deliveryTimeout = deliveryTimeout
    }

    /// Adds `POST jobs`, `GET jobs/{id}`, `DELETE jobs/{id}`, `GET jobs/{id}/result` and
    /// `GET jobs/{id}/events` to `router` (the `/v1` group).
    package func add(to router: some RouterMethods<StudioContext>) {
        router.post("jobs") { request, context in try await create(request, context: context) }
        router.get("jobs/{id}") { _, context in
            let id = try context.parameters.require("id")
            return try Self.json(try answer { try jobs.snapshot(of: id) })
        }
        router.delete("jobs/{id}") { _, context in
            let id = try context.parameters.require("id")
            try answer { try jobs.cancel(id) }
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        router.get("jobs/{id}/result") { request, context in
            try await result(try context.parameters.require("id"), request: request, context: context)
        }
        router.get("jobs/{id}/events") { _, context in
            let id = try context.parameters.require("id")
            _ = try answer { try jobs.snapshot(of: id) }
            return JobEventStream(jobs: jobs, id: id).response()
        }
    }

    /// `POST /v1/jobs`: 202 with the job JSON and its `Location`.
    private func create(_ request: Request, context: StudioContext) async throws -> Response {
        let data = try await body(request, context)
        let decoded: JobRequest
        do {
            decoded = try JSONDecoder().decode(JobRequest.self, from: data)
        } catch let error as DecodingError {
            throw Problem.badRequest("The body is not a job request: \(Self.reason(error)).")
        }
        let client = client(request, context)
        let snapshot = try answer {
            try jobs.submit(try decoded.spec(limits: jobs.limits, design: design), client: client)
        }
        var response = try Self.json(snapshot, status: .accepted)
        response.headers[.location] = "/v1/jobs/" + snapshot.id
        return response
    }

    /// `GET /v1/jobs/{id}/result`: the file as an attachment, removed once sent completely:
    /// once every byte was written and the client's side acknowledged the last of them
    /// (``Delivery``). A client that leaves before, even with the whole file in the
    /// sockets' buffers, leaves it to be downloaded again.
    private func result(_ id: String, request: Request, context: StudioContext) async throws -> Response {
        let sending = request.method != .head
        let file = try answer { try jobs.claimResult(of: id, claiming: sending) }
        let contents: ResponseBody
        do {
            contents = try await FileIO().loadFile(path: file.path, context: context)
        } catch {
            if sending { jobs.resultSent(id, completely: false) }
            throw Problem(JobProblem.resultGone(id, because: "was removed"))
        }
        let headers: HTTPFields = [
            .contentType: file.contentType, .contentDisposition: "attachment; filename=\"\(file.name)\"",
            .cacheControl: "no-store",
        ]
        guard sending else { return Response(status: .ok, headers: headers, body: contents) }
        let channel = context.channel, timeout = deliveryTimeout
        let body = ResponseBody(contentLength: contents.contentLength) { [jobs] writer in
            do {
                try await contents.write(writer)
                let delivered = await Delivery.acknowledged(on: channel, within: timeout)
                jobs.resultSent(id, completely: delivered)
            } catch {
                jobs.resultSent(id, completely: false)
                throw error
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Runs a job manager call, answering its ``JobProblem`` as a ``Problem``.
    private func answer<T>(_ call: () throws -> T) throws -> T {
        do { return try call() } catch let problem as JobProblem { throw Problem(problem) }
    }

    /// The job JSON as a response.
    static func json(_ snapshot: JobSnapshot, status: HTTPResponse.Status = .ok) throws -> Response {
        Response.json(String(decoding: try JobSnapshot.encoder.encode(snapshot), as: UTF8.self), status: status)
    }

    /// One line on why a body did not decode as a ``JobRequest``.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "it has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\"\(path(context))\" has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not a JSON object" : "\"\(path(context))\" is not usable"
        @unknown default: return "it does not match the schema"
        }
    }
}

extension JobSnapshot {
    /// The encoder of the job JSON: keys sorted, slashes as they are.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension Problem {
    /// The problem response of a job's ``JobProblem``, with its `Retry-After`.
    init(_ problem: JobProblem) {
        self.init(
            HTTPResponse.Status(code: problem.status), String(problem.type.dropFirst(Problem.typePrefix.count)),
            title: problem.title, detail: problem.detail)
        if let seconds = problem.retryAfter { headers[.retryAfter] = String(seconds) }
    }
}
