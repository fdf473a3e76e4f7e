import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Job events")
struct JobEventTests {
    /// Connects to 127.0.0.1:`port`, asks for `path`, and reads until the first event has
    /// arrived; returns the socket, still open.
    private static func openEventStream(port: Int, path: String) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try #require(send(socket, request, request.count, 0) == request.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("event: progress") {
            let count = recv(socket, &buffer, buffer.count, 0)
            try #require(count > 0)
            received += buffer[0..<count]
        }
        return socket
    }

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
                try Self.openEventStream(port: port, path: "/v1/jobs/\(queued.id)/events")
            }
            #expect(jobs.openEventStreamCount == 1)
            close(socket)
            #expect(await eventually { jobs.openEventStreamCount == 0 })
            #expect(try jobs.snapshot(of: queued.id).state == .queued)
        }
        try jobs.cancel(queued.id)
        try jobs.cancel(running.id)
        await jobs.shutdown()
    }
}
