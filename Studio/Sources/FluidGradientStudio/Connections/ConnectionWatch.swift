import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Watches one connection at the socket's end of its pipeline and closes it when a client
/// takes too long: idle with no request under way, over its request's head or body, or
/// not reading a response. A request whose head or body ran out of time, and which has no
/// response yet, is answered 408 first.
///
/// It sees bytes (a request has begun with its first byte) and the writability of the
/// socket; ``RequestTracker``, after the HTTP codec, tells it where each request and
/// response stands. Both live on the connection's event loop.
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Which time ran out.
    enum Expiry: Equatable {
        case idle, header, body, send
    }

    private let limits: ConnectionLimits
    private let registry: ConnectionRegistry
    private var context: ChannelHandlerContext?
    private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?

    /// Requests whose head was read and whose response has not ended.
    private var inProgress = 0
    /// Whether a request's head was read and its end not yet.
    private var readingBody = false
    /// Whether a response was begun for the request being read.
    private var responseStarted = false
    /// Since when bytes have arrived that no head has taken yet; nil for none.
    private var headSince: NIODeadline?
    /// Since when the connection has had no request (accepted, or its last response ended).
    private var idleSince = NIODeadline.now()
    /// When the request being read had its head.
    private var bodySince = NIODeadline.now()
    /// Since when the socket has not taken more bytes; nil while it does.
    private var stalledSince: NIODeadline?
    /// The bytes written to the connection so far (``Delivery`` compares them with what the
    /// client's side acknowledged).
    private(set) var bytesWritten: UInt64 = 0

    /// A watch applying `limits`, telling `registry` whether the connection is busy.
    init(limits: ConnectionLimits, registry: ConnectionRegistry) {
        self.limits = limits
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        idleSince = .now()
        reschedule()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if headSince == nil, !readingBody {
            headSince = .now()
            if inProgress == 0 { registry.setBusy(context.channel, true) }
            reschedule()
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        stalledSince = context.channel.isWritable ? nil : .now()
        reschedule()
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .byteBuffer(let buffer): bytesWritten += UInt64(buffer.readableBytes)
        case .fileRegion(let region): bytesWritten += UInt64(region.readableBytes)
        }
        context.write(data, promise: promise)
    }

    // MARK: What the tracker reports

    /// A request's head was read.
    func requestHeadRead() {
        inProgress += 1
        readingBody = true
        responseStarted = false
        headSince = nil
        bodySince = .now()
        if let context { registry.setBusy(context.channel, true) }
        reschedule()
    }

    /// A request's end was read.
    func requestEndRead() {
        readingBody = false
        reschedule()
    }

    /// A response's head is being written.
    ///
    /// - Returns: whether the connection closes after this response: its request's body
    ///   has not all arrived, and reading the rest only to drop it could take any time.
    func responseHeadWritten() -> Bool {
        responseStarted = true
        return readingBody
    }

    /// A response's end was written.
    func responseEndWritten() {
        inProgress = max(0, inProgress - 1)
        guard inProgress == 0, !readingBody else { return }
        idleSince = .now()
        if headSince == nil, let context { registry.setBusy(context.channel, false) }
        reschedule()
    }

    // MARK: Timing

    /// The next deadline and what it bounds, if any applies now.
    private var nextDeadline: (NIODeadline, Expiry)? {
        var next: (NIODeadline, Expiry)?
        func consider(_ start: NIODeadline, _ limit: Duration, _ expiry: Expiry) {
            let deadline = start + .nanoseconds(limit.nanoseconds)
            if next.map({ deadline < $0.0 }) ?? true { next = (deadline, expiry) }
        }
        if readingBody {
            consider(bodySince, limits.bodyTimeout, .body)
        } else if inProgress == 0 {
            if let headSince {
                consider(headSince, limits.headerTimeout, .header)
            } else {
                consider(idleSince, limits.idleTimeout, .idle)
            }
        }
        if let stalledSince { consider(stalledSince, limits.sendTimeout, .send) }
        return next
    }

    private func reschedule() {
        guard let context else { return }
        let next = nextDeadline
        if let timer, timer.deadline == next?.0 { return }
        timer?.task.cancel()
        timer = nil
        guard let (deadline, _) = next else { return }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            expireIfDue()
        }
        timer = (deadline, task)
    }

    private func expireIfDue() {
        guard let context, let (deadline, expiry) = nextDeadline else { return }
        guard deadline <= .now() else { return reschedule() }
        switch expiry {
        case .header where inProgress == 0, .body where !responseStarted:
            let detail =
                expiry == .header
                ? "The request's head did not arrive within \(limits.headerTimeout)."
                : "The request's body did not arrive within \(limits.bodyTimeout)."
            let response = ConnectionProblem.response(status: 408, reason: "Request Timeout", detail: detail)
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(response)), promise: nil)
        case .send:
            // A client that stopped reading would otherwise keep the unsent bytes (megabytes
            // in the kernel's buffer) trickling out for minutes after the close; a reset
            // frees them at once.
            _ = (context.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
        default:
            break
        }
        context.close(promise: nil)
    }
}

extension Duration {
    /// The duration in nanoseconds, clamped to `Int64`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product.addingReportingOverflow(attoseconds / 1_000_000_000).0
    }
}
