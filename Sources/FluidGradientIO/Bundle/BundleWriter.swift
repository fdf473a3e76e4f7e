import FluidGradient
import Foundation

/// What `render --bundle DIR` writes: everything a site or an app needs for one loop.
package struct BundleRequest: Sendable {
    /// The loop at its display size.
    package var preset: Preset
    /// The directory to create, or to replace if it holds an earlier bundle.
    package var directory: String
    /// The size the loops are encoded at (the posters are at the display size).
    package var encodeSize: EncodeSize
    /// Dither 8-bit frames (H.264, VP9, the posters); 10-bit codecs never are.
    package var dither: Bool
    /// Threads for the display-size renders (posters and the measurement's references).
    package var threads: Int
    /// How many files are encoded, and then measured, at the same time (at least 1): each
    /// encode's memory is its renderer's and its encoder's, each measurement's its decoded
    /// frames, so fewer at once need less.
    package var encodesAtOnce: Int
    /// The tool and its version, for the manifest.
    package var generator: String
    /// Hears each ffmpeg command line, for `--verbose`.
    package var announce: (@Sendable (String) -> Void)?
    /// Hears the progress: each encode's frames, the files measured, the packing.
    package var progress: (@Sendable (RenderProgress) -> Void)?
    /// Asked between frames: true stops the bundle as an interrupt does (a batch that
    /// is stopping).
    package var shouldStop: @Sendable () -> Bool

    package init(
        preset: Preset, directory: String, encodeSize: EncodeSize, dither: Bool = true, threads: Int = 1,
        encodesAtOnce: Int = .max, generator: String = "fluidgradient " + Preset.engineVersion,
        announce: (@Sendable (String) -> Void)? = nil, progress: (@Sendable (RenderProgress) -> Void)? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) {
        self.preset = preset
        self.directory = directory
        self.encodeSize = encodeSize
        self.dither = dither
        self.threads = threads
        self.encodesAtOnce = max(1, encodesAtOnce)
        self.generator = generator
        self.announce = announce
        self.progress = progress
        self.shouldStop = shouldStop
    }
}

/// Writes a bundle:
///
/// 1. every encode at once (or ``BundleRequest/encodesAtOnce`` at a time), each its own
///    render into its own ffmpeg (the encoders are where the time goes, and they overlap
///    on every core);
/// 2. an opaque poster's JPEG from its PNG;
/// 3. each file decoded and measured against the display-size render (``BundleMeasurement``);
/// 4. `index.html`, the player for a transparent loop, and `manifest.json`.
///
/// All of it is built in a hidden directory that is renamed into place at the end, so a
/// failure or an interrupt leaves `DIR` as it was.
package enum BundleWriter {
    /// Writes the bundle `request` describes.
    ///
    /// - Parameter request: the loop, where it goes and how.
    /// - Returns: the manifest written with it.
    /// - Throws: the first encode's or measurement's error, or ``InterruptionError``;
    ///   nothing is left under `request.directory` then.
    package static func write(_ request: BundleRequest) throws -> BundleManifest {
        let staging = try AtomicDirectory(destination: request.directory, marker: "manifest.json")
        let outputs = BundleOutput.loops(transparent: request.preset.frameSpec.hasTransparency) + BundleOutput.posters
        let progress = request.progress.map { report in
            EventProgress(
                steps: BundleProgress.steps(for: outputs, frames: request.preset.frameCount),
                weights: BundleProgress.weights, emit: report)
        }
        do {
            let manifest = try build(request, outputs: outputs, progress: progress, in: staging)
            try staging.commit()
            progress?.complete()
            return manifest
        } catch {
            staging.discard()
            throw error
        }
    }

    private static func build(
        _ request: BundleRequest, outputs: [BundleOutput], progress: EventProgress?, in staging: AtomicDirectory
    ) throws -> BundleManifest {
        let preset = request.preset
        let transparent = preset.frameSpec.hasTransparency
        // The loop is grain-free; the page lays the grain over it and over an opaque loop's
        // poster. A transparent loop's posters keep their grain: CSS cannot overlay only the
        // poster's opaque part, and the player lays the grain on the video itself.
        let grain = BundleGrain(preset: preset)
        let (loop, still) = (preset.withoutGrain, transparent ? preset : preset.withoutGrain)
        try encode(outputs, loop: loop, still: still, request: request, progress: progress, in: staging)
        if request.shouldStop() { throw InterruptionError() }
        let (measured, posters, measurement) = try measureAll(
            outputs, loop: loop, still: still, request: request, progress: progress, in: staging)
        progress?.begin(.packing)
        var files: [BundleManifest.File] = []
        var sources: [BundleSource] = []
        for (output, facts, error) in measured {
            let type = output.mimeType
            let fullType =
                (output.isLoop ? facts.codecString(fps: preset.fps) : nil).map { type + "; codecs=\"\($0)\"" } ?? type
            if output.isLoop { sources.append(BundleSource(file: output.file, type: fullType)) }
            files.append(
                BundleManifest.File(
                    file: output.file, role: output.isLoop ? (transparent ? "stacked-alpha-loop" : "loop") : "poster",
                    type: fullType, codec: facts.codec, bitDepth: facts.bitDepth,
                    bytes: AtomicFile.regularFileSize(staging.path(of: output.file)) ?? 0, width: facts.width,
                    height: facts.height, psnr: error.psnr, largestError: error.largest))
        }
        let page = BundlePage(
            title: "FluidGradient loop", width: preset.width, height: preset.height, sources: sources,
            posters: posters.map { (file: $0.file, type: $0.mimeType) },
            player: transparent ? WebPlayer.fileName : nil, colorSpace: preset.colorSpace,
            grain: grain.map { PageGrain(cell: $0.field.cellSize, animated: $0.field.animated, fps: preset.fps) })
        var extras: [(name: String, role: String, type: String, bytes: [UInt8])] = [
            ("index.html", "page", "text/html", Array(page.html.utf8))
        ]
        if transparent { extras.append((WebPlayer.fileName, "player", "text/javascript", WebPlayer.script)) }
        extras += try (grain?.files() ?? []).map { ($0.name, $0.role, "image/png", $0.bytes) }
        for extra in extras {
            try AtomicFile.write(extra.bytes, to: staging.path(of: extra.name), suggestedExtension: "html")
            files.append(
                BundleManifest.File(file: extra.name, role: extra.role, type: extra.type, bytes: extra.bytes.count))
        }
        let manifest = BundleManifest(
            generator: request.generator, displayWidth: preset.width, displayHeight: preset.height,
            encodedWidth: request.encodeSize.width, encodedHeight: request.encodeSize.height, fps: preset.fps,
            frames: preset.frameCount, transparent: transparent, colorSpace: preset.colorSpace,
            measuredAt: measurement.seconds(fps: preset.fps), files: files, grain: grain?.manifest)
        try AtomicFile.write(manifest.json(), to: staging.path(of: "manifest.json"), suggestedExtension: "json")
        return manifest
    }

    /// The opaque poster's JPEG from its PNG, then every loop and poster measured: the
    /// loops against `loop`, the posters against `still`.
    private static func measureAll(
        _ outputs: [BundleOutput], loop: Preset, still: Preset, request: BundleRequest, progress: EventProgress?,
        in staging: AtomicDirectory
    ) throws -> (
        measured: [(BundleOutput, StreamFacts, (psnr: Double, largest: Double))], posters: [BundleOutput],
        measurement: BundleMeasurement
    ) {
        let transparent = loop.frameSpec.hasTransparency
        var posters = outputs.filter { !$0.isLoop }
        if !transparent {
            let jpeg = BundleOutput.jpegPoster
            try JPEGPoster.convert(
                staging.path(of: posters[posters.count - 1].file), to: staging.path(of: jpeg.file),
                colorSpace: loop.colorSpace)
            posters[posters.count - 1] = jpeg
        }
        let measuring = outputs.filter(\.isLoop) + posters
        progress?.begin(.measuring, steps: [("files", measuring.count)])
        let measurement = BundleMeasurement(preset: loop, threads: request.threads)
        let stillMeasurement = still == loop ? measurement : BundleMeasurement(still: still, threads: request.threads)
        let measured = try measure(
            measuring, in: staging, with: (measurement, stillMeasurement), alpha: transparent,
            atOnce: request.encodesAtOnce, progress: progress)
        if request.shouldStop() { throw InterruptionError() }
        return (measured, posters, measurement)
    }

    /// Each output's stream facts and error, measured two or more at a time (decoding and
    /// comparing a display-size frame is work for a core each), at most `atOnce` at a time
    /// (each holds its decoded frames).
    private static func measure(
        _ outputs: [BundleOutput], in staging: AtomicDirectory,
        with measurements: (loop: BundleMeasurement, still: BundleMeasurement), alpha: Bool, atOnce: Int,
        progress: EventProgress?
    ) throws -> [(BundleOutput, StreamFacts, (psnr: Double, largest: Double))] {
        let results = Locked([(StreamFacts, (psnr: Double, largest: Double))?](repeating: nil, count: outputs.count))
        let failure = FirstFailure()
        for start in stride(from: 0, to: outputs.count, by: max(1, atOnce)) {
            let batch = Array(start..<min(outputs.count, start + max(1, atOnce)))
            DispatchQueue.concurrentPerform(iterations: batch.count) { offset in
                let index = batch[offset], output = outputs[index], path = staging.path(of: output.file)
                do {
                    let measurement = output.isLoop ? measurements.loop : measurements.still
                    let error = try measurement.measure(path, isLoop: output.isLoop, includeAlpha: alpha)
                    let facts = try StreamFacts(probing: path)
                    results.update { $0[index] = (facts, error) }
                    progress?.advance(0)
                } catch {
                    failure.record(error)
                }
            }
        }
        if let error = failure.error { throw error }
        return zip(outputs, results.value).map { output, result in (output, result!.0, result!.1) }
    }

    /// Runs the encodes, ``BundleRequest/encodesAtOnce`` at a time in the outputs' order, the
    /// loops of `loop` at the encode size and the posters of `still`; the first failure stops
    /// the others.
    private static func encode(
        _ outputs: [BundleOutput], loop: Preset, still: Preset, request: BundleRequest, progress: EventProgress?,
        in staging: AtomicDirectory
    ) throws {
        let preset = loop
        let small = loop.rendered(at: request.encodeSize)
        let failure = FirstFailure()
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
                    let isLoop = output.isLoop
                    let shown = isLoop ? small : still
                    let sink = try output.sink(
                        path: staging.path(of: output.file), width: shown.width, height: shown.height, fps: preset.fps,
                        frames: preset.frameCount, transparent: preset.frameSpec.hasTransparency,
                        dither: request.dither, colorSpace: preset.colorSpace, announce: request.announce)
                    let plan = RenderPlan(
                        preset: shown, frames: 0...(isLoop ? preset.frameCount - 1 : 0), time: isLoop ? nil : 0,
                        dither: request.dither, threads: isLoop ? 1 : request.threads)
                    let reporter = progress?.reporter(for: BundleProgress.step(of: output, in: outputs))
                    try FramePipeline.run(plan, into: sink, progress: reporter) {
                        failure.happened || request.shouldStop()
                    }
                } catch {
                    failure.record(error)
                }
            }.start()
        }
        while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if Interruption.isRequested { failure.record(InterruptionError()) }
        }
        if let error = failure.error { throw error }
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
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// The first error of several threads; later ones are dropped, as they follow from it.
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    var happened: Bool { lock.withLock { first != nil } }
    var error: (any Error)? { lock.withLock { first } }

    func record(_ error: any Error) {
        lock.withLock { if first == nil { first = error } }
    }
}
