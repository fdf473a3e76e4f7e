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
    /// The tool and its version, for the manifest.
    package var generator: String
    /// Hears each ffmpeg command line, for `--verbose`.
    package var announce: (@Sendable (String) -> Void)?
    /// Hears (frames encoded, total) over every file, after each frame.
    package var progress: (@Sendable (Int, Int) -> Void)?
    /// Asked between frames: true stops the bundle as an interrupt does (a batch that
    /// is stopping).
    package var shouldStop: @Sendable () -> Bool

    package init(
        preset: Preset, directory: String, encodeSize: EncodeSize, dither: Bool = true, threads: Int = 1,
        generator: String = "fluidgradient " + Preset.engineVersion, announce: (@Sendable (String) -> Void)? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil, shouldStop: @escaping @Sendable () -> Bool = { false }
    ) {
        self.preset = preset
        self.directory = directory
        self.encodeSize = encodeSize
        self.dither = dither
        self.threads = threads
        self.generator = generator
        self.announce = announce
        self.progress = progress
        self.shouldStop = shouldStop
    }
}

/// Writes a bundle:
///
/// 1. every encode at once, each its own render into its own ffmpeg (the encoders are
///    where the time goes, and they overlap on every core);
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
        do {
            let manifest = try build(request, in: staging)
            try staging.commit()
            return manifest
        } catch {
            staging.discard()
            throw error
        }
    }

    private static func build(_ request: BundleRequest, in staging: AtomicDirectory) throws -> BundleManifest {
        let preset = request.preset
        let transparent = preset.frameSpec.hasTransparency
        let outputs = BundleOutput.loops(transparent: transparent) + BundleOutput.posters
        try encode(outputs, request: request, in: staging)
        if request.shouldStop() { throw InterruptionError() }
        var posters = outputs.filter { !$0.isLoop }
        if !transparent {
            let jpeg = BundleOutput.jpegPoster
            try JPEGPoster.convert(
                staging.path(of: posters[posters.count - 1].file), to: staging.path(of: jpeg.file),
                colorSpace: preset.colorSpace)
            posters[posters.count - 1] = jpeg
        }
        let measurement = BundleMeasurement(preset: preset, threads: request.threads)
        let measured = try measure(
            outputs.filter(\.isLoop) + posters, in: staging, with: measurement, alpha: transparent)
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
            player: transparent ? WebPlayer.fileName : nil, colorSpace: preset.colorSpace)
        var extras: [(name: String, role: String, type: String, bytes: [UInt8])] = [
            ("index.html", "page", "text/html", Array(page.html.utf8))
        ]
        if transparent { extras.append((WebPlayer.fileName, "player", "text/javascript", WebPlayer.script)) }
        for extra in extras {
            try AtomicFile.write(extra.bytes, to: staging.path(of: extra.name), suggestedExtension: "html")
            files.append(
                BundleManifest.File(file: extra.name, role: extra.role, type: extra.type, bytes: extra.bytes.count))
        }
        let manifest = BundleManifest(
            generator: request.generator, displayWidth: preset.width, displayHeight: preset.height,
            encodedWidth: request.encodeSize.width, encodedHeight: request.encodeSize.height, fps: preset.fps,
            frames: preset.frameCount, transparent: transparent, colorSpace: preset.colorSpace,
            measuredAt: measurement.seconds(fps: preset.fps), files: files)
        try AtomicFile.write(manifest.json(), to: staging.path(of: "manifest.json"), suggestedExtension: "json")
        return manifest
    }

    /// Each output's stream facts and error, measured two or more at a time (decoding and
    /// comparing a display-size frame is work for a core each).
    private static func measure(
        _ outputs: [BundleOutput], in staging: AtomicDirectory, with measurement: BundleMeasurement, alpha: Bool
    ) throws -> [(BundleOutput, StreamFacts, (psnr: Double, largest: Double))] {
        let results = Locked([(StreamFacts, (psnr: Double, largest: Double))?](repeating: nil, count: outputs.count))
        let failure = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: outputs.count) { index in
            let output = outputs[index], path = staging.path(of: output.file)
            do {
                let error = try measurement.measure(path, isLoop: output.isLoop, includeAlpha: alpha)
                let facts = try StreamFacts(probing: path)
                results.update { $0[index] = (facts, error) }
            } catch {
                failure.record(error)
            }
        }
        if let error = failure.error { throw error }
        return zip(outputs, results.value).map { output, result in (output, result!.0, result!.1) }
    }

    /// Runs every encode at once; the first failure stops the others.
    private static func encode(_ outputs: [BundleOutput], request: BundleRequest, in staging: AtomicDirectory)
        throws
    {
        let preset = request.preset
        let small = preset.rendered(at: request.encodeSize)
        let total = outputs.map { $0.isLoop ? preset.frameCount : 1 }.reduce(0, +)
        let progress = request.progress.map { CallbackProgress(total: total, report: $0) }
        let failure = FirstFailure()
        let group = DispatchGroup()
        for output in outputs {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let isLoop = output.isLoop
                    let shown = isLoop ? small : preset
                    let sink = try output.sink(
                        path: staging.path(of: output.file), width: shown.width, height: shown.height, fps: preset.fps,
                        frames: preset.frameCount, transparent: preset.frameSpec.hasTransparency,
                        dither: request.dither, colorSpace: preset.colorSpace, announce: request.announce)
                    let plan = RenderPlan(
                        preset: shown, frames: 0...(isLoop ? preset.frameCount - 1 : 0), time: isLoop ? nil : 0,
                        dither: request.dither, threads: isLoop ? 1 : request.threads)
                    try FramePipeline.run(plan, into: sink, progress: progress) {
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
