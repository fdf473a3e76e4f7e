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
    /// The user's rates, constant rate factors by codec; every other loop's is searched
    /// (``RateSearch``).
    package var rates: [Output.BundleCodec: Int]
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
        rates: [Output.BundleCodec: Int] = [:], encodesAtOnce: Int = .max,
        generator: String = "fluidgradient " + Preset.engineVersion, announce: (@Sendable (String) -> Void)? = nil,
        progress: (@Sendable (RenderProgress) -> Void)? = nil, shouldStop: @escaping @Sendable () -> Bool = { false }
    ) {
        self.preset = preset
        self.directory = directory
        self.encodeSize = encodeSize
        self.dither = dither
        self.threads = threads
        self.rates = rates
        self.encodesAtOnce = max(1, encodesAtOnce)
        self.generator = generator
        self.announce = announce
        self.progress = progress
        self.shouldStop = shouldStop
    }
}

/// Writes a bundle:
///
/// 1. every encode at once (or ``BundleRequest/encodesAtOnce`` at a time, ``BundleEncoder``),
///    each loop at its user's or a searched rate;
/// 2. an opaque poster's JPEG from its PNG;
/// 3. each file decoded and measured against the display-size render (``BundleMeasurement``),
///    and a loop whose searched rate misses its bar encoded again a step lower;
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
        let encoder = BundleEncoder(request: request, loop: loop, still: still, staging: staging)
        var rates = try encoder.encode(outputs, progress: progress)
        if request.shouldStop() { throw InterruptionError() }
        let (measured, posters, measurement) = try measureAll(
            outputs, encoder: encoder, rates: &rates, progress: progress)
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
                    height: facts.height, psnr: error.psnr, largestError: error.largest, banding: error.banding,
                    crf: rates[output.file]?.crf,
                    rateChoice: rates[output.file].map { $0.searched ? "searched" : "given" }))
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

    /// The opaque poster's JPEG from its PNG, then every loop and poster measured (the
    /// loops against the encoder's loop, the posters against its still), and the loops
    /// whose searched rate missed its bar encoded again lower (``retry(_:encoder:rates:with:)``).
    private static func measureAll(
        _ outputs: [BundleOutput], encoder: BundleEncoder, rates: inout [String: (crf: Int, searched: Bool)],
        progress: EventProgress?
    ) throws -> (
        measured: [(BundleOutput, StreamFacts, BundleMeasurement.Result)], posters: [BundleOutput],
        measurement: BundleMeasurement
    ) {
        let (loop, still, request, staging) = (encoder.loop, encoder.still, encoder.request, encoder.staging)
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
        let measurements = (measurement, stillMeasurement)
        var measured = try measure(
            measuring, in: staging, with: measurements, alpha: transparent, atOnce: request.encodesAtOnce,
            progress: progress)
        if request.shouldStop() { throw InterruptionError() }
        try retry(&measured, encoder: encoder, rates: &rates, with: measurements)
        return (measured, posters, measurement)
    }

    /// Encodes again a step lower, at most twice, each loop whose searched rate misses its
    /// bar whole (the excerpt can flatter it), and measures it again.
    private static func retry(
        _ measured: inout [(BundleOutput, StreamFacts, BundleMeasurement.Result)], encoder: BundleEncoder,
        rates: inout [String: (crf: Int, searched: Bool)],
        with measurements: (loop: BundleMeasurement, still: BundleMeasurement)
    ) throws {
        let request = encoder.request
        for _ in 0..<2 {
            let again = measured.compactMap { output, _, result -> (BundleOutput, Int)? in
                guard let rate = rates[output.file], rate.searched, !output.rateBar.isMet(by: result) else {
                    return nil
                }
                let lower = rate.crf - output.rateLadder.step
                return lower >= output.rateLadder.lowest ? (output, lower) : nil
            }
            if again.isEmpty { break }
            _ = try encoder.encode(
                again.map(\.0), rates: Dictionary(uniqueKeysWithValues: again.map { ($0.0.file, $0.1) }))
            if request.shouldStop() { throw InterruptionError() }
            for (output, crf) in again { rates[output.file] = (crf, true) }
            let remeasured = try measure(
                again.map(\.0), in: encoder.staging, with: measurements,
                alpha: encoder.loop.frameSpec.hasTransparency, atOnce: request.encodesAtOnce, progress: nil)
            for entry in remeasured {
                measured[measured.firstIndex { $0.0.file == entry.0.file }!] = entry
            }
        }
    }

    /// Each output's stream facts and error, measured two or more at a time (decoding and
    /// comparing a display-size frame is work for a core each), at most `atOnce` and at most
    /// one a core at a time (each holds its decoded frames), each on a thread started here
    /// rather than a shared pool's, so that the measuring runs at the caller's scheduling
    /// priority, as the encodes do.
    private static func measure(
        _ outputs: [BundleOutput], in staging: AtomicDirectory,
        with measurements: (loop: BundleMeasurement, still: BundleMeasurement), alpha: Bool, atOnce: Int,
        progress: EventProgress?
    ) throws -> [(BundleOutput, StreamFacts, BundleMeasurement.Result)] {
        let results = Locked([(StreamFacts, BundleMeasurement.Result)?](repeating: nil, count: outputs.count))
        let failure = FirstFailure()
        let atOnce = max(1, min(atOnce, ProcessInfo.processInfo.activeProcessorCount))
        for start in stride(from: 0, to: outputs.count, by: atOnce) {
            let batch = Array(start..<min(outputs.count, start + atOnce))
            let group = DispatchGroup()
            for index in batch {
                group.enter()
                Thread {
                    defer { group.leave() }
                    let output = outputs[index], path = staging.path(of: output.file)
                    do {
                        let measurement = output.isLoop ? measurements.loop : measurements.still
                        let error = try measurement.measure(path, isLoop: output.isLoop, includeAlpha: alpha)
                        let facts = try StreamFacts(probing: path)
                        results.update { $0[index] = (facts, error) }
                        progress?.advance(0)
                    } catch {
                        failure.record(error)
                    }
                }.start()
            }
            group.wait()
        }
        if let error = failure.error { throw error }
        return zip(outputs, results.value).map { output, result in (output, result!.0, result!.1) }
    }
}
