import NIOCore
import Synchronization

/// The server's open connections, shared by every event loop: it admits a new connection
/// under the cap, makes room by closing the one idle longest, or refuses it; and at
/// shutdown it closes whatever is still open.
package final class ConnectionRegistry: Sendable {
    /// What becomes of a new connection.
    package enum Admission: Equatable {
        /// Served (an idle connection may have been closed to make room).
        case admitted
        /// Answered 503 and closed: the cap is reached and no connection is idle.
        case refused
        /// Closed at once: even the refusal slots are taken.
        case dropped
    }

    private struct Entry {
        let channel: any Channel
        /// Since when the connection has had no request under way; nil while it has one.
        var idleSince: NIODeadline?
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var refusing = 0
        var closingAll = false
        /// Counters for the log and the tests.
        var evicted = 0
        var refused = 0
        var dropped = 0
    }

    /// The limits: the cap, the refusal slots and the idle age that allows eviction.
    package let limits: ConnectionLimits
    /// The descriptors kept free of connections.
    let reserve: Int
    /// The descriptor limit, read for each new connection (a function, so tests set it).
    let descriptorLimit: @Sendable () -> Int
    private let state = Mutex(State())

    /// A registry for `limits`, keeping `reserve` descriptors free under `descriptorLimit`.
    package init(limits: ConnectionLimits, reserve: Int, descriptorLimit: @escaping @Sendable () -> Int) {
        self.limits = limits
        self.reserve = reserve
        self.descriptorLimit = descriptorLimit
    }

    /// The connection cap now.
    package var cap: Int { max(0, limits.cap(descriptors: descriptorLimit(), reserve: reserve)) }

    /// How many connections the descriptor limit leaves room for, whatever the cap.
    package var descriptorRoom: Int { descriptorLimit() - reserve - limits.refusalSlots }

    /// Admits `channel`, a new connection: under the cap it is served; at the cap the
    /// connection idle longest (at least ``ConnectionLimits/minimumIdleBeforeEviction``) is
    /// closed to make room; with none, the new one is refused while a refusal slot is free,
    /// else dropped. A refused one calls ``refusalEnded()`` once it is closed.
    ///
    /// - Parameter channel: the new connection.
    /// - Returns: what to do with it.
    package func admit(_ channel: any Channel) -> Admission {
        let cap = cap, now = NIODeadline.now()
        let evictable = now - .nanoseconds(limits.minimumIdleBeforeEviction.nanoseconds)
        let (admission, evicted) = state.withLock { state -> (Admission, (any Channel)?) in
            guard !state.closingAll else { return (.dropped, nil) }
            var evicted: (any Channel)?
            if state.open.count >= cap {
                // Over the cap (the limit was lowered while running) nothing is evicted.
                guard state.open.count == cap, let victim = Self.idleLongest(in: state.open, since: evictable) else {
                    guard state.refusing < limits.refusalSlots else {
                        state.dropped += 1
                        return (.dropped, nil)
                    }
                    state.refusing += 1
                    state.refused += 1
                    return (.refused, nil)
                }
                evicted = state.open.removeValue(forKey: victim)?.channel
                state.evicted += 1
            }
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: now)
            return (.admitted, evicted)
        }
        evicted?.close(promise: nil)
        return admission
    }

    /// The connection idle longest, if one has been idle since `since` or before.
    private static func idleLongest(in open: [ObjectIdentifier: Entry], since: NIODeadline) -> ObjectIdentifier? {
        var best: (key: ObjectIdentifier, since: NIODeadline)?
        for (key, entry) in open {
            guard let idle = entry.idleSince, idle <= since, idle < best?.since ?? .distantFuture else { continue }
            best = (key, idle)
        }
        return best?.key
    }

    /// A refused connection is closed.
    package func refusalEnded() { state.withLock { $0.refusing -= 1 } }

    /// Records whether `channel` has a request under way.
    package func setBusy(_ channel: any Channel, _ busy: Bool) {
        state.withLock { state in
            state.open[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now()
        }
    }

    /// Forgets `channel`, which is closed.
    package func remove(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every open connection and refuses new ones (the end of the shutdown grace).
    package func closeAll() {
        let channels = state.withLock { state in
            state.closingAll = true
            return state.open.values.map(\.channel)
        }
        for channel in channels { channel.close(promise: nil) }
    }

    /// How many connections are open, and how many were evicted, refused and dropped so far.
    package var counts: (open: Int, evicted: Int, refused: Int, dropped: Int) {
        state.withLock { ($0.open.count, $0.evicted, $0.refused, $0.dropped) }
    }
}
