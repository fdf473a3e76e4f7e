import Synchronization

/// A bounded map that drops its least recently used entries once their total cost is over
/// the capacity. Safe to share between threads; every call takes one lock briefly.
///
/// Costs are what the owner bounds: the bytes of an encoded frame, or 1 to bound a count.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node {
        var key: Key
        /// Nil once the node is free, so that a dropped value is released at once.
        var value: Value?
        var cost: Int
        var older: Int?
        var newer: Int?
    }

    private struct Storage {
        var index: [Key: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest: Int?
        var oldest: Int?
        var totalCost = 0
    }

    /// The largest total cost kept.
    let capacity: Int
    private let storage = Mutex(Storage())

    /// An empty cache.
    ///
    /// - Parameter capacity: the largest total cost kept.
    init(capacity: Int) { self.capacity = capacity }

    /// The value for `key`, now the most recently used; nil when it is not kept.
    func value(for key: Key) -> Value? {
        storage.withLock { storage in
            guard let slot = storage.index[key] else { return nil }
            Self.unlink(slot, in: &storage)
            Self.linkNewest(slot, in: &storage)
            return storage.nodes[slot].value
        }
    }

    /// Keeps `value` for `key` as the most recently used, dropping the oldest entries while
    /// the total cost is over the capacity. A value costing more than the capacity is not
    /// kept.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - key: its key; a value kept for it before is replaced.
    ///   - cost: what it counts against the capacity.
    func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= capacity else { return }
        storage.withLock { storage in
            if let slot = storage.index[key] { Self.remove(slot, in: &storage) }
            let node = Node(key: key, value: value, cost: cost)
            let slot: Int
            if let reused = storage.free.popLast() {
                storage.nodes[reused] = node
                slot = reused
            } else {
                storage.nodes.append(node)
                slot = storage.nodes.count - 1
            }
            storage.index[key] = slot
            storage.totalCost += cost
            Self.linkNewest(slot, in: &storage)
            while storage.totalCost > capacity, let oldest = storage.oldest { Self.remove(oldest, in: &storage) }
        }
    }

    /// How many entries are kept, and their total cost.
    var usage: (count: Int, cost: Int) { storage.withLock { ($0.index.count, $0.totalCost) } }

    private static func remove(_ slot: Int, in storage: inout Storage) {
        unlink(slot, in: &storage)
        storage.index[storage.nodes[slot].key] = nil
        storage.totalCost -= storage.nodes[slot].cost
        storage.nodes[slot].value = nil
        storage.free.append(slot)
    }

    private static func unlink(_ slot: Int, in storage: inout Storage) {
        let (older, newer) = (storage.nodes[slot].older, storage.nodes[slot].newer)
        if let older { storage.nodes[older].newer = newer } else { storage.oldest = newer }
        if let newer { storage.nodes[newer].older = older } else { storage.newest = older }
        storage.nodes[slot].older = nil
        storage.nodes[slot].newer = nil
    }

    private static func linkNewest(_ slot: Int, in storage: inout Storage) {
        storage.nodes[slot].older = storage.newest
        if let newest = storage.newest { storage.nodes[newest].newer = slot }
        storage.newest = slot
        if storage.oldest == nil { storage.oldest = slot }
    }
}
