import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a response reached the client: every byte written on the connection (counted
/// by its ``ConnectionWatch``) acknowledged by the client's side (the kernel's
/// `tcpi_bytes_acked`). Written is not enough: a file of a few megabytes fits in the two
/// sockets' buffers, and a client that closes without reading resets the connection after
/// the server has written it all.
enum Delivery {
    /// Waits until every byte written on `channel` so far is acknowledged.
    ///
    /// - Parameters:
    ///   - channel: the connection; nil or one that is not a TCP socket (a test's) counts as
    ///     delivered at once.
    ///   - timeout: how long to wait.
    /// - Returns: true once acknowledged; false when the connection closes or fails first,
    ///   or the time runs out.
    static func acknowledged(on channel: (any Channel)?, within timeout: Duration) async -> Bool {
        guard let channel, let sockets = channel as? any SocketOptionProvider else { return true }
        assert(MemoryLayout<KernelTCPInfo>.size == 232, "the size of Linux's struct tcp_info")
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end, channel.isActive {
            guard
                let written = try? await channel.eventLoop.submit({
                    try channel.pipeline.syncOperations.handler(type: ConnectionWatch.self).bytesWritten
                }).get(),
                let info: KernelTCPInfo = try? await sockets.unsafeGetSocketOption(level: .tcp, name: .tcp_info).get()
            else { return false }
            if info.bytesAcknowledged >= written { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}

/// Linux's `struct tcp_info` as the kernel fills it (glibc's declaration stops before the
/// fields read here): 232 bytes, of which `tcpi_bytes_acked`, a 64-bit count at offset
/// 120, is read.
struct KernelTCPInfo: Sendable {
    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// The bytes the peer has acknowledged (`tcpi_bytes_acked`).
    var bytesAcknowledged: UInt64 {
        withUnsafeBytes(of: storage) { $0.load(fromByteOffset: 120, as: UInt64.self) }
    }
}
