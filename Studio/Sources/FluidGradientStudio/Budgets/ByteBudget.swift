import Synchronization

/// Bytes the server holds for requests at once (the bodies being read, the images being
/// uploaded), bounded in all and for each client: one client holds at most
/// ``perClient`` of them, so that it cannot take every place from the others.
package final class ByteBudget: Sendable {
    private struct State {
        var total = 0
        var byClient: [String: Int] = [:]
    }

    /// What the budget is for, as its refusal says it ("JSON bodies being read").
    package let name: String
    /// The bytes held at most, in all.
    package let capacity: Int
    /// The bytes one client holds at most: half the capacity, but at least `minimumShare`.
    package let perClient: Int
    private let state = Mutex(State())

    /// A budget of `capacity` bytes for `name`.
    ///
    /// - Parameters:
    ///   - name: what it holds, for its refusal.
    ///   - capacity: the bytes held at most.
    ///   - minimumShare: what one client may always hold when the budget has room (one
    ///     request at its size limit).
    package init(name: String, capacity: Int, minimumShare: Int) {
        self.name = name
        self.capacity = max(1, capacity)
        perClient = min(self.capacity, max(self.capacity / 2, minimumShare))
    }

    /// Takes `bytes` more for `client`.
    ///
    /// - Throws: a 503 ``Problem`` (with `Retry-After`) when the budget, or the client's
    ///   share of it, would be exceeded; nothing is taken then.
    package func take(_ bytes: Int, for client: String, retryAfter: Int) throws(Problem) {
        guard bytes > 0 else { return }
        let refusal = state.withLock { state -> String? in
            let mine = state.byClient[client, default: 0]
            if mine + bytes > perClient {
                return "this client's \(name) already hold \(mine) of its \(perClient) bytes"
            }
            if state.total + bytes > capacity { return "\(name) already hold \(state.total) of \(capacity) bytes" }
            state.total += bytes
            state.byClient[client] = mine + bytes
            return nil
        }
        if let refusal {
            throw Problem.busy("The body cannot be taken in now: \(refusal).", retryAfter: retryAfter)
        }
    }

    /// Gives back `bytes` of `client`'s.
    package func give(_ bytes: Int, for client: String) {
        guard bytes > 0 else { return }
        state.withLock { state in
            state.total -= bytes
            let left = state.byClient[client, default: 0] - bytes
            state.byClient[client] = left > 0 ? left : nil
        }
    }

    /// The bytes held now, in all.
    package var used: Int { state.withLock { $0.total } }
}

/// One request's part of a ``ByteBudget``, grown as its body arrives and given back when
/// the request is done with it.
final class BudgetHold: Sendable {
    let budget: ByteBudget
    let client: String
    let retryAfter: Int
    private let held = Mutex(0)

    init(_ budget: ByteBudget, client: String, retryAfter: Int) {
        self.budget = budget
        self.client = client
        self.retryAfter = retryAfter
    }

    /// Holds at least `bytes` in all.
    ///
    /// - Throws: the budget's 503 ``Problem``.
    func grow(to bytes: Int) throws(Problem) {
        let more = held.withLock { max(0, bytes - $0) }
        try budget.take(more, for: client, retryAfter: retryAfter)
        held.withLock { $0 += more }
    }

    /// Gives back everything held.
    func release() {
        let bytes = held.withLock { held in
            defer { held = 0 }
            return held
        }
        budget.give(bytes, for: client)
    }
}

extension ByteBudget {
    /// Runs `work` with a hold on this budget for `client`, given back when it returns.
    func holding<T>(
        for client: String, retryAfter: Int, _ work: (BudgetHold) async throws -> T
    ) async throws -> T {
        let hold = BudgetHold(self, client: client, retryAfter: retryAfter)
        defer { hold.release() }
        return try await work(hold)
    }
}
