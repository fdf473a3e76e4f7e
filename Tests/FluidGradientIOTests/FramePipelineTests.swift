import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// What a stalled sink's write throws once it is released.
private struct ConsumerGone: Error {}

/// A sink whose consumer never reads, as ffmpeg busy encoding: each write waits until
/// ``cancel()`` (or 20 s, which the test counts as a failure).
private final class StalledSink: FrameSink, @unchecked Sendable {
    let pixelFormat = PixelFormat.rgba
    let isOrderIndependent = false
    private let released = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var timedOut = false
    private var aborted = false

    var waitedOut: Bool { lock.withLock { timedOut } }
    var wasAborted: Bool { lock.withLock { aborted } }

    func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        if released.wait(timeout: .now() + 20) == .timedOut { lock.withLock { timedOut = true } }
        released.signal()
        throw ConsumerGone()
    }

    func finish() throws {}
    func cancel() { released.signal() }
    func abort() { lock.withLock { aborted = true } }
}

@Suite struct FramePipelineTests {
    /// A stop asked for while every buffer waits on the consumer is seen within a wait,
    /// and the sink is cancelled, not drained: nothing waits for the consumer.
    @Test func aStopCancelsWritesThatWaitOnTheConsumer() {
        var preset = Preset(colors: [RGBA(bytes: 230, 57, 70), RGBA(bytes: 29, 53, 87)])
        preset.width = 32
        preset.height = 18
        let sink = StalledSink()
        let started = Date()
        do {
            // Frames 0 and 1 fill both buffers; the stop comes while frame 2 waits for one.
            try FramePipeline.run(RenderPlan(preset: preset, frames: 0...9), into: sink) {
                Date().timeIntervalSince(started) > 0.3
            }
            Issue.record("the render finished")
        } catch {
            #expect(error is InterruptionError)
        }
        #expect(!sink.waitedOut, "a write waited for the consumer after the stop")
        #expect(sink.wasAborted)
    }
}
