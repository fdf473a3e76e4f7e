import FluidGradientStudio
import NIOCore
import NIOEmbedded
import Testing

/// The connection cap: under it a connection is served; at it the one idle longest makes
/// room, or the new one is refused (answered 503) while refusal slots last, else dropped;
/// and the cap follows the descriptor limit, less the descriptors kept for the jobs.
@Suite struct ConnectionRegistryTests {
    /// A connection, active as an accepted one is.
    static func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func registry(
        cap: Int, refusalSlots: Int = 2, evictAfter: Duration = .zero, descriptors: Int = 1 << 20
    ) -> ConnectionRegistry {
        var limits = ConnectionLimits()
        limits.maxConnections = cap
        limits.refusalSlots = refusalSlots
        limits.minimumIdleBeforeEviction = evictAfter
        return ConnectionRegistry(limits: limits, reserve: 100, descriptorLimit: { descriptors })
    }

    @Test func closesTheConnectionIdleLongestToMakeRoom() throws {
        let registry = Self.registry(cap: 3)
        let open = try (0..<3).map { _ in try Self.connection() }
        for channel in open { #expect(registry.admit(channel) == .admitted) }
        registry.setBusy(open[0], true)
        let newcomer = try Self.connection()
        #expect(registry.admit(newcomer) == .admitted)
        // The first is busy: the second, idle longest, was closed.
        #expect(open.map(\.isActive) == [true, false, true])
        #expect(registry.counts.open == 3 && registry.counts.evicted == 1)
    }

    @Test func refusesWhileNoConnectionIsIdleAndDropsPastTheRefusalSlots() throws {
        let registry = Self.registry(cap: 2, refusalSlots: 1)
        let open = try (0..<2).map { _ in try Self.connection() }
        for channel in open {
            #expect(registry.admit(channel) == .admitted)
            registry.setBusy(channel, true)
        }
        #expect(registry.admit(try Self.connection()) == .refused)
        #expect(registry.admit(try Self.connection()) == .dropped)
        registry.refusalEnded()
        #expect(registry.admit(try Self.connection()) == .refused)
        // A connection idle for less than the eviction age is not closed for a newcomer.
        let young = Self.registry(cap: 1, evictAfter: .seconds(60))
        let first = try Self.connection()
        #expect(young.admit(first) == .admitted)
        #expect(young.admit(try Self.connection()) == .refused)
        #expect(first.isActive)
    }

    /// With 1024 descriptors, 100 kept free and 2 refusal slots, 922 connections fit; the
    /// limit is read for each connection, so lowering it while running lowers the cap.
    @Test func holdsTheCapUnderTheDescriptorLimit() throws {
        #expect(Self.registry(cap: 5000, descriptors: 1024).cap == 922)
        #expect(Self.registry(cap: 500, descriptors: 1024).cap == 500)
        #expect(Self.registry(cap: 500, descriptors: 50).cap == 0)
        #expect(ConnectionLimits.descriptorReserve(runningJobs: 2) == 160)
        #expect(ConnectionLimits().cap(descriptors: 1024, reserve: 160) == 832)
    }

    @Test func closesEverythingAtTheEndOfTheGrace() throws {
        let registry = Self.registry(cap: 4)
        let open = try (0..<3).map { _ in try Self.connection() }
        for channel in open { #expect(registry.admit(channel) == .admitted) }
        registry.closeAll()
        #expect(open.allSatisfy { !$0.isActive })
        #expect(registry.admit(try Self.connection()) == .dropped)
    }
}
