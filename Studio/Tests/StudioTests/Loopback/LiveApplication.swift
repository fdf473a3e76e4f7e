import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// How a test runs an application: on a loopback port of its own, through real sockets.
enum TestingSetup {
    /// A server on 127.0.0.1 at a port the system picks.
    case live
}

extension ApplicationProtocol {
    /// Runs the application on a free loopback port, hands `test` a client for it, then stops
    /// the server gracefully (its services too) and waits for it.
    ///
    /// - Parameters:
    ///   - setup: `.live`, the one setup.
    ///   - test: the test, given the client.
    /// - Returns: what `test` returns.
    /// - Throws: what `test` or the server throws.
    func test<Value: Sendable>(
        _ setup: TestingSetup, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let (ports, reporter) = AsyncStream.makeStream(of: Int.self)
        let application = OnLoopback(base: self, reporter: reporter)
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Value?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next()
            let result: Result<Value, any Error>
            do {
                result = .success(try await test(LoopbackClient(port: port)))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

/// An application bound to port 0 of 127.0.0.1 that reports the port it got.
private struct OnLoopback<Base: ApplicationProtocol>: ApplicationProtocol {
    let base: Base
    let reporter: AsyncStream<Int>.Continuation

    var responder: Base.Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration {
        base.configuration.with(address: .hostname("127.0.0.1", port: 0))
    }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        reporter.yield(channel.localAddress?.port ?? 0)
        reporter.finish()
    }
}
