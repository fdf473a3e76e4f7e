import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Tells a connection's ``ConnectionWatch`` where its requests and responses stand, from
/// the HTTP parts after the codec; and closes the connection after a response that was
/// begun before its request's body all arrived (saying so with `Connection: close`),
/// instead of reading the rest of that body only to drop it.
final class RequestTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let watch: ConnectionWatch
    private var closeAfterResponse = false

    /// A tracker reporting to `watch`.
    init(watch: ConnectionWatch) { self.watch = watch }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: watch.requestHeadRead()
        case .end: watch.requestEndRead()
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.kind != .informational:
            if watch.responseHeadWritten() || head.headerFields[.connection]?.lowercased() == "close" {
                closeAfterResponse = true
                head.headerFields[.connection] = "close"
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            watch.responseEndWritten()
            guard closeAfterResponse else { return context.write(data, promise: promise) }
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .head, .body:
            context.write(data, promise: promise)
        }
    }
}
