import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite("Job routes")
struct JobRouteTests {
    /// Runs `body` against a fresh studio, given the studio too (for its job directory).
    private func withJobStudio(
        _ configure: (inout StudioConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (Studio, any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = StudioConfiguration()
        configure(&configuration)
        let studio = Studio(configuration: configuration)
        try await studio.application().test(.live) { client in
            try await body(studio, DocumentCheckingClient(client: client))
        }
        await studio.jobs.shutdown()
    }

    /// Posts `preset` as a design and returns its id.
    private func postDesign(_ preset: Preset, _ client: some TestClientProtocol) async throws -> String {
        try await client.execute(
            uri: "/v1/designs", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: preset.jsonText)
        ) { response in
            #expect(response.status == .ok)
            return try #require(try response.jsonObject()["id"] as? String)
        }
    }

    /// Posts a job (from client `name`, when the studio reads `X-Client`) and returns its
    /// JSON; the status must be 202 with the job's Location.
    private func postJob(_ json: String, _ client: some TestClientProtocol, as name: String = "-") async throws
        -> JobSnapshot
    {
        try await client.execute(
            uri: "/v1/jobs", method: .post, headers: [.contentType: "application/json", .init("X-Client")!: name],
            body: ByteBuffer(string: json)
        ) { response in
            #expect(response.status == .accepted)
            let job = try JSONDecoder().decode(JobSnapshot.self, from: Data(response.bytes))
            #expect(response.headers[.location] == "/v1/jobs/" + job.id)
            #expect([.queued, .running].contains(job.state))
            return job
        }
    }

    /// The job JSON of each event of the job's event stream, read to its end.
    private func events(of id: String, _ client: some TestClientProtocol) async throws -> [JobSnapshot] {
        try await client.execute(uri: "/v1/jobs/\(id)/events", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream")
            let blocks = String(buffer: response.body).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            return try blocks.map { block in
                let lines = block.split(separator: "\n")
                #expect(lines.first == "event: progress")
                let data = try #require(lines.last?.split(separator: " ", maxSplits: 1).last)
                return try JSONDecoder().decode(JobSnapshot.self, from: Data(data.utf8))
            }
        }
    }

    /// Downloads job `id`'s file into a temporary file and returns its path.
    private func download(_ id: String, name: String, type: String, _ client: some TestClientProtocol) async throws
        -> String
    {
        try await client.execute(uri: "/v1/jobs/\(id)/result", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == type)
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"\(name)\"")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(id)-\(name)").path
            try Data(response.bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test("an mp4 job: 202, events rising to done, a HEAD that keeps the file, the file once, then 410")
    func mp4Job() async throws {
        try await withJobStudio { studio, client in
            let design = try await postDesign(smallPreset(), client)
            let job = try await postJob(#"{"design": "\#(design)", "format": "mp4", "encodeSize": "full"}"#, client)
            let seen = try await events(of: job.id, client)
            #expect(seen.last?.state == .done)
            #expect(seen.last?.progress == 1)
            #expect(seen.map(\.progress) == seen.map(\.progress).sorted())
            #expect(seen.dropLast().allSatisfy { !$0.state.isTerminal })
            try await client.execute(uri: "/v1/jobs/\(job.id)/result", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"small.mp4\"")
            }
            let path = try await download(job.id, name: "small.mp4", type: "video/mp4", client)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try await onOwnThread { try probedFrameCount(path) } == 15)
            #expect(seen.last?.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
            #expect(studio.jobs.workspace?.entries() == [])
            try await client.execute(uri: "/v1/jobs/\(job.id)/result", method: .get) {
                try $0.expectProblem(.gone, slug: "result-gone")
            }
        }
    }

    @Test("a webp job's download holds its 15 frames")
    func webpJob() async throws {
        try await withJobStudio { studio, client in
            let design = try await postDesign(smallPreset(), client)
            let job = try await postJob(#"{"design": "\#(design)", "format": "webp"}"#, client)
            #expect(try await events(of: job.id, client).last?.state == .done)
            let path = try await download(job.id, name: "small.webp", type: "image/webp", client)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(webpFrameCount(try Data(contentsOf: URL(fileURLWithPath: path))) == 15)
            #expect(studio.jobs.workspace?.entries() == [])
        }
    }

    @Test("DELETE cancels a running job: 204, state cancelled, nothing left, result 410")
    func cancelJob() async throws {
        try await withJobStudio { studio, client in
            let design = try await postDesign(smallPreset(duration: 60, width: 320, height: 180), client)
            let job = try await postJob(#"{"design": "\#(design)", "format": "mp4"}"#, client)
            #expect(try await eventually { try studio.jobs.snapshot(of: job.id).progress > 0 })
            try await client.execute(uri: "/v1/jobs/\(job.id)", method: .delete) { #expect($0.status == .noContent) }
            let state = try await client.execute(uri: "/v1/jobs/\(job.id)", method: .get) { response in
                try JSONDecoder().decode(JobSnapshot.self, from: Data(response.bytes)).state
            }
            #expect(state == .cancelled)
            #expect(try await events(of: job.id, client).map(\.state) == [.cancelled])
            #expect(await eventually { studio.jobs.runningCount == 0 })
            #expect(studio.jobs.workspace?.entries() == [])
            try await client.execute(uri: "/v1/jobs/\(job.id)/result", method: .get) { try $0.expectProblem(.gone) }
        }
    }

    @Test("past one running and one queued job, a job is 503 with Retry-After")
    func queueFull() async throws {
        let oneAndOne: (inout StudioConfiguration) -> Void = {
            $0.maxRunningJobs = 1
            $0.maxQueuedJobs = 1
            $0.clientAddressHeader = "X-Client"
        }
        try await withJobStudio(oneAndOne) { studio, client in
            let design = try await postDesign(smallPreset(duration: 60), client)
            let body = #"{"design": "\#(design)", "format": "mp4"}"#
            let jobs = [try await postJob(body, client, as: "a"), try await postJob(body, client, as: "b")]
            try await client.execute(
                uri: "/v1/jobs", method: .post, headers: [.contentType: "application/json", .init("X-Client")!: "c"],
                body: ByteBuffer(string: body)
            ) { response in
                try response.expectProblem(.serviceUnavailable, slug: "queue-full")
                #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 0 } == true)
            }
            for job in jobs.reversed() {
                try await client.execute(uri: "/v1/jobs/\(job.id)", method: .delete) {
                    #expect($0.status == .noContent)
                }
            }
        }
    }

    @Test("requests the job API refuses: 422 over the frame limit, 400, 404, 415")
    func refusals() async throws {
        try await withJobStudio { _, client in
            let design = try await postDesign(smallPreset(), client)
            let cases: [(String, HTTPResponse.Status, String)] = [
                (
                    #"{"design": "\#(design)", "format": "mp4", "duration": 120.1, "fps": 30}"#, .unprocessableContent,
                    "too-many-frames"
                ),
                (#"{"design": "\#(design)", "format": "mkv"}"#, .badRequest, "bad-request"),
                (#"{"design": "\#(design)"}"#, .badRequest, "bad-request"),
                (#"{"design": "\#(design)", "format": 3}"#, .badRequest, "bad-request"),
                (#"[1, 2]"#, .badRequest, "bad-request"),
                (#"{"design": "\#(String(repeating: "0", count: 64))", "format": "gif"}"#, .notFound, "unknown-design"),
            ]
            for (json, status, slug) in cases {
                try await client.execute(
                    uri: "/v1/jobs", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: json)
                ) { try $0.expectProblem(status, slug: slug) }
            }
            try await client.execute(
                uri: "/v1/jobs", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "{}")
            ) { try $0.expectProblem(.unsupportedMediaType) }
        }
    }

    @Test("an unknown job is a 404 problem on every route")
    func unknownJob() async throws {
        try await withJobStudio { _, client in
            for (path, method) in [("", HTTPRequest.Method.get), ("", .delete), ("/result", .get), ("/events", .get)] {
                try await client.execute(uri: "/v1/jobs/abc\(path)", method: method) {
                    try $0.expectProblem(.notFound, slug: "unknown-job")
                }
            }
        }
    }
}

@Suite("Job shutdown")
struct JobShutdownTests {
    @Test("the server's graceful shutdown cancels its jobs and removes their directory")
    func gracefulShutdown() async throws {
        var configuration = StudioConfiguration()
        configuration.port = 0
        configuration.maxRunningJobs = 1
        let studio = Studio(configuration: configuration)
        let body = ByteBuffer(string: #"{"preset": "\#(try #require(Preset.builtInNames.first))", "format": "webm"}"#)
        let ids = try await studio.application().test(.live) { client in
            var ids: [String] = []
            for _ in 0..<2 {
                try await client.execute(
                    uri: "/v1/jobs", method: .post, headers: [.contentType: "application/json"], body: body
                ) { response in
                    #expect(response.status == .accepted)
                    ids.append(try JSONDecoder().decode(JobSnapshot.self, from: Data(response.bytes)).id)
                }
            }
            #expect(await eventually { studio.jobs.workspace?.entries().isEmpty == false })
            return ids
        }
        let workspace = try #require(studio.jobs.workspace)
        #expect(!FileManager.default.fileExists(atPath: workspace.path))
        for id in ids { #expect(try studio.jobs.snapshot(of: id).state == .cancelled) }
        #expect(throws: JobProblem.shuttingDown) {
            try studio.jobs.submit(JobSpec(preset: smallPreset(), format: .video(.gif), encodeSize: .full))
        }
    }
}
