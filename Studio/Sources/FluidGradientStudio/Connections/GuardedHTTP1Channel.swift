import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 child channel behind the studio's connection limits: each new
/// connection is admitted by the ``ConnectionRegistry`` (served, or answered 503, or
/// closed), and a served one is watched for its timeouts (``ConnectionWatch`` at the
/// socket's end, ``RequestTracker`` after the codec).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// The plain channel, which reads and answers the requests.
    let base: HTTP1Channel
    /// The open connections.
    let registry: ConnectionRegistry
    /// The `Retry-After` seconds of a refusal.
    let retryAfter: Int

    /// A guarded channel answering with `responder`, its codec limited by `decoder`.
    init(
        responder: @escaping HTTPChannelHandler.Responder, decoder: HTTP1Channel.Configuration.DecoderConfiguration,
        registry: ConnectionRegistry, retryAfter: Int
    ) {
        base = HTTP1Channel(responder: responder, configuration: .init(httpDecoderConfiguration: decoder))
        self.registry = registry
        self.retryAfter = retryAfter
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let registry = registry, limits = registry.limits
        do {
            switch registry.admit(channel) {
            case .admitted:
                channel.closeFuture.whenComplete { _ in registry.remove(channel) }
                let watch = ConnectionWatch(limits: limits, registry: registry)
                try channel.pipeline.syncOperations.addHandler(watch)
                let bound = NIOLoopBound(watch, eventLoop: channel.eventLoop)
                var configuration = base.configuration
                configuration.additionalChannelHandlers = { [RequestTracker(watch: bound.value)] }
                return HTTP1Channel(responder: base.responder, configuration: configuration)
                    .setup(channel: channel, logger: logger)
            case .refused:
                channel.closeFuture.whenComplete { _ in registry.refusalEnded() }
                try channel.pipeline.syncOperations.addHandler(
                    RefusalHandler(answer: true, linger: limits.refusalLinger, retryAfter: retryAfter))
            case .dropped:
                try channel.pipeline.syncOperations.addHandler(
                    RefusalHandler(answer: false, linger: .zero, retryAfter: retryAfter))
            }
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        // Refused: the codec is there for the server's handling, but no byte reaches it.
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
