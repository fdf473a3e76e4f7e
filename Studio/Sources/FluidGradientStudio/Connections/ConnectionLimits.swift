import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many connections the server keeps open and how long each may take over its
/// parts: the connection cap (also held under the process's descriptor limit) and the
/// timeouts of issue 35.
package struct ConnectionLimits: Sendable, Equatable {
    /// The most connections open at once, when the descriptor limit allows as many.
    package var maxConnections = 1024
    /// A connection with no request under way (a new one that sent nothing, or a kept-alive
    /// one after its response) is closed after this long.
    package var idleTimeout = Duration.seconds(15)
    /// A request's head (its line and headers) must arrive within this long of its first byte.
    package var headerTimeout = Duration.seconds(10)
    /// A request's body must arrive within this long of its head.
    package var bodyTimeout = Duration.seconds(60)
    /// A response the client does not read (the socket's buffers full) is cut off after this
    /// long without progress.
    package var sendTimeout = Duration.seconds(30)
    /// At shutdown, connections still open this long after the signal are closed.
    package var shutdownGrace = Duration.seconds(5)
    /// New connections over the cap answered 503 at once (each holds a descriptor for at most
    /// ``refusalLinger``); more than these are closed without an answer.
    package var refusalSlots = 32
    /// How long a refused connection is read from (and discarded), so that its 503 is not
    /// lost to a reset, before it is closed.
    package var refusalLinger = Duration.seconds(1)
    /// A connection idle for less than this is never closed to make room for a new one.
    package var minimumIdleBeforeEviction = Duration.milliseconds(500)

    /// The defaults: 1024 connections, 15 s idle, 10 s for a head, 60 s for a body, 30 s for
    /// a stalled response, 5 s of grace at shutdown.
    package init() {}

    /// The descriptors kept free of connections: the server's own (event loops, the
    /// listening socket, logs), each running job's (its files and ffmpeg's pipes; a bundle
    /// runs up to seven encodes) and a download's open file, so that running out of
    /// descriptors refuses a connection and never fails anything else.
    ///
    /// - Parameter runningJobs: how many jobs run at once.
    /// - Returns: the descriptors to keep free.
    package static func descriptorReserve(runningJobs: Int) -> Int { 96 + 32 * max(1, runningJobs) }

    /// The connection cap under the descriptor limit `descriptors`: ``maxConnections``, or
    /// fewer when the descriptors, less the reserve and the refusal slots, are fewer.
    ///
    /// - Parameters:
    ///   - descriptors: the process's descriptor limit (`RLIMIT_NOFILE`, soft).
    ///   - reserve: the descriptors kept free (``descriptorReserve(runningJobs:)``).
    /// - Returns: how many connections may be open; 0 or less when none can.
    package func cap(descriptors: Int, reserve: Int) -> Int {
        min(maxConnections, descriptors - reserve - refusalSlots)
    }
}

/// The process's descriptor limit (`RLIMIT_NOFILE`).
enum DescriptorLimit {
    /// The soft limit now; it is read again on each connection, since `prlimit` can lower it
    /// while the server runs.
    static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // RLIM_INFINITY is all ones, which clamps to a number larger than any cap.
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit, as servers do: the soft default (often 1024)
    /// is there for programs that use `select`.
    ///
    /// - Returns: the soft limit afterwards.
    @discardableResult
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
