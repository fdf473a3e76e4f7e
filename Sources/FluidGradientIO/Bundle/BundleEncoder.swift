import FluidGradient
import Foundation

/// A bundle's encodes: ``BundleRequest/encodesAtOnce`` at a time in the outputs' order
/// (all at once by default: the encoders are where the time goes, and they overlap on
/// every core), each its own render into its own ffmpeg, each loop at the rate the user
/// gave or a ``RateSearch`` chose just before its encode, in the same turn.
struct BundleEncoder: Sendable {
    let request: BundleRequest
    let staging: AtomicDirectory
    /// The loop's preset at the display size (grain-free: the page lays the grain).
    let loop: Preset
    /// The posters' preset at the display size.
    let still: Preset
    /// The loop at the encode size.
    let small: Preset
    /// Measures a rate search's excerpts, at its instants.
    let excerptMeasurement: BundleMeasurement
    let excerpt: ClosedRange<Int>

    init(request: BundleRequest, loop: Preset, still: Preset, staging: AtomicDirectory) {
        self.request = request
        self.staging = staging
        self.loop = loop
        self.still = still
        small = loop.rendered(at: request.encodeSize)
        excerpt = RateSearch.excerpt(frameCount: loop.frameCount, fps: loop.fps)
        excerptMeasurement = BundleMeasurement(
            preset: loop, frames: RateSearch.measuredFrames(of: excerpt), threads: request.threads, banding: false)
    }

    /// Runs the encodes of `outputs`, each loop at `rates[file]` when given, or else the
    /// user's rate or a searched one; the first failure stops the others.
    ///
    /// - Parameters:
    ///   - outputs: the files to encode, in their order.
    ///   - rates: rates by file name that win over the user's and the search.
    ///   - progress: counts each file's frames into its step of `outputs`' (nil: not reported).
    /// - Returns: each loop's rate, by file name, and whether it was searched.
    /// - Throws: the first encode's or search's error, or ``InterruptionError``.
    func encode(
        _ outputs: [BundleOutput], rates: [String: Int] = [:], progress: EventProgress? = nil
    ) throws -> [String: (crf: Int, searched: Bool)] {
        let failure = FirstFailure()
        let chosen = Locked([String: (crf: Int, searched: Bool)]())
        let group = DispatchGroup()
        let turns = Turns(count: min(request.encodesAtOnce, outputs.count))
        for (index, output) in outputs.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                turns.wait(for: index)
                defer { turns.done() }
                guard !failure.happened, !request.shouldStop() else { return }
                do {
                    var crf: Int?
                    if let codec = output.rateCodec {
                        let given = rates[output.file] ?? request.rates[codec]
                        let rate = try given ?? search(output, failure: failure)
                        chosen.update { $0[output.file] = (rate, given == nil) }
                        crf = rate
                    }
                    let reporter = progress?.reporter(for: BundleProgress.step(of: output, in: outputs))
                    try run(
                        output, frames: 0...(loop.frameCount - 1), crf: crf, path: staging.path(of: output.file),
                        progress: reporter, failure: failure)
                } catch {
                    failure.record(error)
                }
            }.start()
        }
        while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if Interruption.isRequested { failure.record(InterruptionError()) }
        }
        if let error = failure.error { throw error }
        return chosen.value
    }

    /// Encodes `frames` of `output` (a poster takes frame 0 of the still at the display
    /// size) into `path`.
    private func run(
        _ output: BundleOutput, frames: ClosedRange<Int>, crf: Int?, path: String, progress: ProgressReporting?,
        failure: FirstFailure
    ) throws {
        let isLoop = output.isLoop
        let shown = isLoop ? small : still
        let sink = try output.sink(
            path: path, width: shown.width, height: shown.height, fps: loop.fps, frames: frames.count,
            transparent: loop.frameSpec.hasTransparency, dither: request.dither, colorSpace: loop.colorSpace, crf: crf,
            announce: request.announce)
        let plan = RenderPlan(
            preset: shown, frames: isLoop ? frames : 0...0, time: isLoop ? nil : 0, dither: request.dither,
            threads: isLoop ? 1 : request.threads)
        try FramePipeline.run(plan, into: sink, progress: progress) { failure.happened || request.shouldStop() }
    }

    /// The searched rate of `output`, a loop (``RateSearch``).
    private func search(_ output: BundleOutput, failure: FirstFailure) throws -> Int {
        let transparent = loop.frameSpec.hasTransparency
        let search = RateSearch(
            encode: { crf in
                let path = staging.path(of: ".search-\(crf)-" + output.file)
                try run(output, frames: excerpt, crf: crf, path: path, progress: nil, failure: failure)
                if failure.happened || request.shouldStop() { throw InterruptionError() }
                return path
            },
            measure: { path in
                try excerptMeasurement.measure(path, isLoop: true, includeAlpha: transparent, first: excerpt.lowerBound)
            }, bar: output.rateBar, ladder: output.rateLadder)
        return try search.run().crf
    }
}

/// Lets the encode threads run `count` at a time, in the order of their indexes, so that
/// one after another means the outputs' order.
private final class Turns: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var next = 0
    private var running = 0

    init(count: Int) { self.count = max(1, count) }

    /// Returns once the threads before `index` have started and fewer than `count` run.
    func wait(for index: Int) {
        condition.lock()
        defer { condition.unlock() }
        while next != index || running >= count { condition.wait() }
        next += 1
        running += 1
        condition.broadcast()
    }

    /// Frees a place.
    func done() {
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}

/// A value several threads update under a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// The first error of several threads; later ones are dropped, as they follow from it.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    var happened: Bool { lock.withLock { first != nil } }
    var error: (any Error)? { lock.withLock { first } }

    func record(_ error: any Error) {
        lock.withLock { if first == nil { first = error } }
    }
}
