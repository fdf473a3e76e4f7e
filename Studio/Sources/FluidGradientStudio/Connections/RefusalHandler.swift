import NIOCore

/// Takes over a connection the server does not serve: over the cap it answers 503 with
/// `Retry-After` at once, stops writing, reads and drops what the client sends (closing
/// with unread bytes would reset the connection, and the client could lose the answer)
/// and closes it after ``ConnectionLimits/refusalLinger`` or when the client does. A
/// dropped connection is closed at once. No byte reaches the HTTP codec behind it.
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answer: Bool
    private let linger: Duration
    private let retryAfter: Int
    private var started = false

    /// A handler that answers 503 (when `answer`) and closes the connection.
    init(answer: Bool, linger: Duration, retryAfter: Int) {
        self.answer = answer
        self.linger = linger
        self.retryAfter = retryAfter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard answer else { return context.close(promise: nil) }
        let response = ConnectionProblem.response(
            status: 503, reason: "Service Unavailable",
            detail: "The server has as many connections open as it allows; try again shortly.",
            retryAfter: retryAfter)
        context.writeAndFlush(wrapOutboundOut(response), promise: nil)
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(linger.nanoseconds)) {
            context.close(promise: nil)
        }
        context.read()
    }
}
