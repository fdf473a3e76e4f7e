import FluidGradient
import Foundation

/// What to render: which frames of which preset, and how.
package struct RenderPlan: Sendable {
    package var preset: Preset
    /// Frame indices to render (frame `i` shows time `i / fps`).
    package var frames: ClosedRange<Int>
    /// For a one-frame output: the instant to show, instead of `frames.lowerBound / fps`.
    package var time: Double?
    package var dither: Bool
    package var threads: Int

    package init(preset: Preset, frames: ClosedRange<Int>, time: Double? = nil, dither: Bool = true, threads: Int = 1) {
        self.preset = preset
        self.frames = frames
        self.time = time
        self.dither = dither
        self.threads = threads
    }

    /// Time shown by frame `index`, and the index the dither pattern uses.
    func instant(of index: Int) -> (time: Double, ditherIndex: Int) {
        if let time { return (time, preset.ditherIndex(at: time)) }
        return (Double(index) / preset.fps, index)
    }
}

/// Reports progress: frames done, frames per second, time left.
package protocol ProgressReporting: AnyObject, Sendable {
    func update(done: Int, total: Int, elapsed: Double)
    func finish()
}

/// Renders a plan's frames into a sink: the main thread simulates and renders into a
/// small pool of buffers while writer threads hand finished frames to the sink, so
/// rendering frame i+1 overlaps writing frame i and memory does not grow with the
/// number of frames. The first error, or an interrupt, stops everything; the sink
/// then removes what it started.
package enum FramePipeline {
    /// `shouldStop` is asked before each frame, and every 50 ms while the render waits for
    /// a buffer (holding the frame queue's lock, so it must not wait on the pipeline);
    /// when it answers true the render stops as if interrupted, and the sink removes what
    /// it started.
    package static func run(
        _ plan: RenderPlan, into sink: FrameSink, progress: ProgressReporting? = nil, shouldStop: () -> Bool = { false }
    ) throws {
        let preset = plan.preset
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: plan.threads)
        let writers = sink.isOrderIndependent ? max(1, min(plan.threads, plan.frames.count)) : 1
        let queue = FrameQueue(
            buffers: (0...writers).map { _ in
                PixelBuffer(
                    width: preset.width, height: preset.height, format: sink.pixelFormat, matrix: sink.yuvMatrix)
            })
        let total = plan.frames.count
        let start = DispatchTime.now().uptimeNanoseconds
        let finished = DispatchGroup()
        for _ in 0..<writers {
            finished.enter()
            Thread {
                defer { finished.leave() }
                while let job = queue.nextJob() {
                    do {
                        try sink.write(job.buffer, frameIndex: job.index)
                        let done = queue.release(consume job)
                        progress?.update(
                            done: done, total: total,
                            elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    } catch {
                        queue.fail(error)
                    }
                }
            }.start()
        }
        var stop: (any Error)?
        func stopRequested() -> Bool { Interruption.isRequested || shouldStop() }
        frames: for index in plan.frames {
            if stopRequested() {
                stop = InterruptionError()
                break
            }
            // Taken out of the queue, so that this is the buffer's only copy and rendering
            // writes it in place.
            var buffer: PixelBuffer
            switch queue.freeBuffer(unless: stopRequested) {
            case .free(let free): buffer = free
            case .failed: break frames
            case .stopped:
                // A writer's failure is reported as such, even if a stop came with it.
                stop = InterruptionError()
                break frames
            }
            let instant = plan.instant(of: index)
            let scene = animator.scene(at: instant.time)
            renderer.render(scene, frameIndex: instant.ditherIndex, dither: plan.dither, into: &buffer)
            queue.submit(index: index, buffer: buffer)
        }
        queue.close()
        // Thrown away: writers blocked on ffmpeg should not wait for it to encode.
        if stop != nil || Interruption.isRequested { sink.cancel() }
        finished.wait()
        progress?.finish()
        if stop == nil, Interruption.isRequested { stop = InterruptionError() }
        if let error = stop ?? queue.failure {
            sink.abort()
            throw error is InterruptionError ? InterruptionError(leftBehind: sink.leftBehind) : error
        }
        do {
            try sink.finish()
        } catch {
            throw Interruption.isRequested ? InterruptionError(leftBehind: sink.leftBehind) : error
        }
    }
}

/// The buffers shared between the renderer and the writers.
private final class FrameQueue: @unchecked Sendable {
    struct Job {
        let index: Int
        let buffer: PixelBuffer
    }

    private let condition = NSCondition()
    private var free: [PixelBuffer]
    private var jobs: [Job] = []
    private var closed = false
    private var done = 0
    private(set) var failure: (any Error)?

    init(buffers: [PixelBuffer]) {
        free = buffers
    }

    enum NextBuffer {
        case free(PixelBuffer)
        case failed
        case stopped
    }

    /// A buffer to render into, unless a writer failed or `stopRequested` (a signal cannot
    /// wake the condition, so while it waits it asks every 50 ms).
    func freeBuffer(unless stopRequested: () -> Bool) -> NextBuffer {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && failure == nil {
            if stopRequested() { return .stopped }
            _ = condition.wait(until: Date() + 0.05)
        }
        return failure == nil ? .free(free.removeLast()) : .failed
    }

    func submit(index: Int, buffer: PixelBuffer) {
        condition.lock()
        jobs.append(Job(index: index, buffer: buffer))
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame to write, in order; nil when closed and drained, or after a failure.
    func nextJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed && failure == nil { condition.wait() }
        guard failure == nil, !jobs.isEmpty else { return nil }
        return jobs.removeFirst()
    }

    /// Returns a written frame's buffer; the count of frames written so far. The job is
    /// consumed, so that the queue holds the buffer's only copy.
    func release(_ job: consuming Job) -> Int {
        condition.lock()
        defer { condition.unlock() }
        free.append(job.buffer)
        done += 1
        condition.broadcast()
        return done
    }

    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
