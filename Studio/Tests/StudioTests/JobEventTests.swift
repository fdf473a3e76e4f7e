import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite("Job events")
struct JobEventTests {
    @Test("a client that leaves an event stream holds nothing once the next heartbeat is due")
    func clientLeaves() async throws {
        var limits = JobLimits()
        limits.maxRunning = 1
        limits.eventHeartbeat = .milliseconds(50)
        let jobs = JobManager(limits: limits)
        let router = Router(context: StudioContext.self)
        JobRoutes(
            jobs: jobs, body: { request, _ in Data(buffer: try await request.body.collect(upTo: 1024)) },
            client: { _, _ in "-" }, design: { _ in nil }, deliveryTimeout: .seconds(5)
        ).add(to: router.group("v1"))
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let long = JobSpec(preset: smallPreset(duration: 60), format: .video(.mp4), encodeSize: .full)
        let running = try jobs.submit(long)
        let queued = try jobs.submit(long)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let socket = try await onOwnThread {
                let socket = try LoopbackSocket(port: port, timeout: 30)
                try socket.send(Array("GET /v1/jobs/\(queued.id)/events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                _ = try socket.read(until: "event: progress")
                return socket
            }
            #expect(jobs.openEventStreamCount == 1)
            socket.leave()
            #expect(await eventually { jobs.openEventStreamCount == 0 })
            #expect(try jobs.snapshot(of: queued.id).state == .queued)
        }
        try jobs.cancel(queued.id)
        try jobs.cancel(running.id)
        await jobs.shutdown()
    }
}
