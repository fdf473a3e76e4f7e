import FluidGradient
import Foundation

/// A bundle's encodes: every file at once, each its own render into its own ffmpeg (the
/// encoders are where the time goes, and they overlap on every core), each loop at the
/// rate the user gave or a ``RateSearch`` chose just before its encode.
struct BundleEncoder: Sendable {
    let request: BundleRequest
    let staging: AtomicDirectory
    /// The loop at the encode size.
    let small: Preset
    /// Measures a rate search's excerpts, at its instants.
    let excerptMeasurement: BundleMeasurement
    let excerpt: ClosedRange<Int>

    init(request: BundleRequest, staging: AtomicDirectory) {
        self.request = request
        self.staging = staging
        let preset = request.preset
        small = preset.rendered(at: request.encodeSize)
        excerpt = RateSearch.excerpt(frameCount: preset.frameCount, fps: preset.fps)
        excerptMeasurement = BundleMeasurement(
            preset: preset, frames: RateSearch.measuredFrames(of: excerpt), threads: request.threads, banding: false)
    }

    /// Runs every encode at once, each loop at `rates[file]` when given, or else the user's
    /// rate or a searched one; the first failure stops the others.
    ///
    /// - Returns: each loop's rate, by file name, and whether it was searched.
    /// - Throws: the first encode's or search's error, or ``InterruptionError``.
    func encode(_ outputs: [BundleOutput], rates: [String: Int] = [:]) throws -> [String: (crf: Int, searched: Bool)] {
        let preset = request.preset
        let total = outputs.map { $0.isLoop ? preset.frameCount : 1 }.reduce(0, +)
        let progress = request.progress.map { CallbackProgress(total: total, report: $0) }
        let failure = FirstFailure()
        let chosen = Locked([String: (crf: Int, searched: Bool)]())
        let group = DispatchGroup()
        for output in outputs {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    var crf: Int?
                    if let codec = output.rateCodec {
                        let given = rates[output.file] ?? request.rates[codec]
                        let rate = try given ?? search(output, failure: failure)
                        chosen.update { $0[output.file] = (rate, given == nil) }
                        crf = rate
                    }
                    try run(
                        output, frames: 0...(preset.frameCount - 1), crf: crf, path: staging.path(of: output.file),
                        progress: progress, failure: failure)
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

    /// Encodes `frames` of `output` (a poster takes frame 0 at the display size) into `path`.
    private func run(
        _ output: BundleOutput, frames: ClosedRange<Int>, crf: Int?, path: String, progress: CallbackProgress?,
        failure: FirstFailure
    ) throws {
        let preset = request.preset, isLoop = output.isLoop
        let shown = isLoop ? small : preset
        let sink = try output.sink(
            path: path, width: shown.width, height: shown.height, fps: preset.fps, frames: frames.count,
            transparent: preset.frameSpec.hasTransparency, dither: request.dither, crf: crf,
            announce: request.announce)
        let plan = RenderPlan(
            preset: shown, frames: isLoop ? frames : 0...0, time: isLoop ? nil : 0, dither: request.dither,
            threads: isLoop ? 1 : request.threads)
        try FramePipeline.run(plan, into: sink, progress: progress) { failure.happened || request.shouldStop() }
    }

    /// The searched rate of `output`, a loop (``RateSearch``).
    private func search(_ output: BundleOutput, failure: FirstFailure) throws -> Int {
        let transparent = request.preset.frameSpec.hasTransparency
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
