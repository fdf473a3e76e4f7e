import Dispatch
import FluidGradientIO
import FluidGradientStudio
import Foundation
import Hummingbird
import Testing

@Suite struct FrameCacheTests {
    @Test func boundsTheCacheByTheMemoryItsFramesHold() async throws {
        let text = ##"{"colors": ["#f43f5e", "#3b82f6"], "size": "64x36", "seed": 2}"##
        let preset = try Preset(json: Data(text.utf8), file: "test")
        let held = try [1.0, 2.0].map { try ByteBuffer(data: preset.frame(at: $0).pngData()).capacity + 256 }
        var configuration = StudioConfiguration()
        configuration.maxRenders = 1
        configuration.maxWaitingRenders = 0
        configuration.cacheBytes = held[0] + held[1] - 1
        let studio = Studio(configuration: configuration)
        try await withStudio(studio) { client in
            let id = try await FrameTests.post(text, client)
            for time in [1, 2] {
                try await client.execute(uri: "/v1/designs/\(id)/frames/64x36/\(time).png", method: .get) {
                    #expect($0.status == .ok)
                }
            }
            // With no thread free, only a cached frame can be answered 200.
            let release = DispatchSemaphore(value: 0)
            let running = await occupy(studio.renders, until: release)
            try await client.execute(uri: "/v1/designs/\(id)/frames/64x36/2.png", method: .get) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/designs/\(id)/frames/64x36/1.png", method: .get) {
                #expect($0.status == .serviceUnavailable)
            }
            release.signal()
            for task in running { try await task.value }
        }
    }
}
