import Dispatch
import FluidGradientStudio
import Foundation
import Hummingbird
import Synchronization
import Testing

/// Occupies every thread of `pool` with work that waits for `release`, and returns once
/// all of it is running.
func occupy(_ pool: RenderPool, until release: DispatchSemaphore) async -> [Task<Void, any Error>] {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let tasks = (0..<pool.threadCount).map { _ in
        Task {
            try await pool.run(deadline: .now + .seconds(3600)) {
                startedContinuation.yield()
                release.wait()
            }
        }
    }
    var count = 0
    for await _ in started {
        count += 1
        if count == pool.threadCount { break }
    }
    return tasks
}

@Suite struct RenderLimitTests {
    @Test func refusesWorkBeyondTheThreadsAndTheLine() async throws {
        let pool = RenderPool(threadCount: 2, maxWaiting: 1)
        let release = DispatchSemaphore(value: 0)
        let running = await occupy(pool, until: release)
        let waiting = Task { try await pool.run(deadline: .now + .seconds(3600)) { 7 } }
        while pool.load < 3 { await Task.yield() }
        await #expect(throws: RenderPool.Refusal.busy) {
            try await pool.run(deadline: .now + .seconds(3600)) { 0 }
        }
        for _ in running { release.signal() }
        for task in running { try await task.value }
        #expect(try await waiting.value == 7)
        #expect(try await pool.run(deadline: .now + .seconds(3600)) { 8 } == 8)
        pool.shutdown()
    }

    @Test func answersAWaitingJobAtItsDeadlineAndNeverRunsIt() async throws {
        let pool = RenderPool(threadCount: 1, maxWaiting: 1)
        let release = DispatchSemaphore(value: 0)
        let running = await occupy(pool, until: release)
        let ran = Atomic<Bool>(false)
        await #expect(throws: RenderPool.Refusal.deadline) {
            try await pool.run(deadline: .now + .milliseconds(20)) { ran.store(true, ordering: .relaxed) }
        }
        release.signal()
        try await running[0].value
        #expect(try await pool.run(deadline: .now + .seconds(3600)) { 1 } == 1)
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
        pool.shutdown()
    }

    @Test func answersFramesBeyondTheRenderLimitsWith503AndRetryAfter() async throws {
        var configuration = StudioConfiguration()
        configuration.maxRenders = 1
        configuration.maxWaitingRenders = 0
        configuration.retryAfterSeconds = 2
        let studio = Studio(configuration: configuration)
        let release = DispatchSemaphore(value: 0)
        let running = await occupy(studio.renders, until: release)
        try await withStudio(studio) { client in
            try await client.execute(uri: "/v1/presets/aurora/frames/64x36/1.png", method: .get) { response in
                try response.expectProblem(.serviceUnavailable, slug: "busy")
                #expect(response.headers[.retryAfter] == "2")
            }
            release.signal()
            for task in running { try await task.value }
            try await client.execute(uri: "/v1/presets/aurora/frames/640x360/1.png", method: .get) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func answersAFramePastTheDeadlineWith503() async throws {
        var configuration = StudioConfiguration()
        configuration.maxRenders = 1
        configuration.maxWaitingRenders = 1
        configuration.deadline = .milliseconds(20)
        let studio = Studio(configuration: configuration)
        let release = DispatchSemaphore(value: 0)
        let running = await occupy(studio.renders, until: release)
        try await withStudio(studio) { client in
            try await client.execute(uri: "/v1/presets/aurora/frames/640x360/1.png", method: .get) { response in
                let problem = try response.expectProblem(.serviceUnavailable, slug: "busy")
                #expect((problem["detail"] as? String)?.contains("deadline") == true)
                #expect(response.headers[.retryAfter] == "1")
            }
        }
        release.signal()
        for task in running { try await task.value }
    }

    @Test func aRenderPastItsRequestsDeadlineServesTheNextRequest() async throws {
        // A 3840x2160 PNG takes far longer than 20 ms to render and encode: the first request
        // is answered 503 at its deadline, and once the render ends its frame is cached.
        let studio = Studio(configuration: .changed { $0.deadline = .milliseconds(20) })
        try await withStudio(studio) { client in
            let uri = "/v1/presets/aurora/frames/3840x2160/2.png"
            try await client.execute(uri: uri, method: .get) { #expect($0.status == .serviceUnavailable) }
            var served = false
            for _ in 0..<300 where !served {
                try await Task.sleep(for: .milliseconds(50))
                try await client.execute(uri: uri, method: .get) { served = $0.status == .ok }
            }
            #expect(served, "a retry found the frame the first request's render made")
        }
    }
}

@Suite struct RenderPlaceTests {
    @Test func aRequestAfterAnAnswerFindsTheThreadFree() async throws {
        try await withStudio(
            .changed {
                $0.maxRenders = 1
                $0.maxWaitingRenders = 0
            }
        ) { client in
            for time in 1...6 {
                try await client.execute(uri: "/v1/presets/aurora/frames/640x360/\(time).png", method: .get) {
                    #expect($0.status == .ok)
                }
            }
        }
    }
}

@Suite struct FrameCoalescingTests {
    @Test func concurrentRequestsForOneFrameShareOneRender() async throws {
        // One thread and no waiting line: a second render of the same frame would be refused.
        try await withStudio(
            .changed {
                $0.maxRenders = 1
                $0.maxWaitingRenders = 0
            }
        ) { client in
            let uri = "/v1/presets/aurora/frames/960x540/4.png"
            let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await client.execute(uri: uri, method: .get) { response in
                            #expect(response.status == .ok)
                            return response.bytes
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(bodies).count == 1)
        }
    }
}
