import FluidGradient
import Foundation

/// Everything a write takes: `Preset.write(to:…)`'s parameters, as one value.
package struct WriteRequest: Sendable {
    package var preset: Preset
    package var output: Output
    package var frames: FrameSelection = .all
    package var width: Int?
    package var height: Int?
    /// Nil: the container's own (``EncodeSizeRequest/standard(for:)``), `auto` for a bundle.
    package var encodeSize: EncodeSizeRequest?
    package var alpha: AlphaMode = .auto
    package var dither = true
    package var threads = 1
    package var ffmpegOptions: [String] = []
    /// The tool and its version, for a bundle's manifest.
    package var generator = "fluidgradient " + Preset.engineVersion

    package init(preset: Preset, output: Output) {
        self.preset = preset
        self.output = output
    }
}

/// Where a write reports, and what asks it to stop; both are called from the write's own
/// threads.
package struct WriteHooks: Sendable {
    /// Hears the notes, the ffmpeg commands and the progress, in order.
    package var emit: @Sendable (RenderEvent) -> Void = { _ in }
    /// Asked before each frame and between a bundle's steps: true stops the write as an
    /// interrupt does, and removes what it wrote.
    package var shouldStop: @Sendable () -> Bool = { false }

    package init(
        emit: @escaping @Sendable (RenderEvent) -> Void = { _ in },
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) {
        self.emit = emit
        self.shouldStop = shouldStop
    }
}

/// Writes a preset into an ``Output``: checks the request, chooses the sink and the encode
/// size, and runs the frame pipeline (or the bundle writer). It blocks until the output is
/// complete, on the caller's thread; the public API runs it on a thread of its own.
package enum OutputWriter {
    /// Writes what `request` asks.
    ///
    /// - Returns: the size rendered at, the frames written and a bundle's loops.
    /// - Throws: ``PresetError``, ``OutputError``, ``FileError``, ``PNGError``,
    ///   ``VideoError`` or ``InterruptionError``, before anything is left at the output;
    ///   ``RenderError`` wraps them.
    package static func write(_ request: WriteRequest, hooks: WriteHooks = WriteHooks()) throws -> RenderSummary {
        if case .bundle(let directory, let encodesAtOnce, let rates) = request.output {
            try request.output.check()
            return try writeBundle(request, to: directory, encodesAtOnce: encodesAtOnce, rates: rates, hooks: hooks)
        }
        try request.output.check()
        let selection = try FrameChoice(request.frames, output: request.output, preset: request.preset)
        var preset = try request.preset.checked(width: request.width, height: request.height, times: selection.times)
        let sink: FrameSink
        let step: String
        switch request.output {
        case .png(let path, let depth):
            try request.alpha.check(target: .png(path), hasTransparency: preset.hasTransparency, height: preset.height)
            sink = try PNGFileSink(
                path: path, depth: depth.bits, alpha: preset.hasTransparency,
                options: PNGOptions(colorSpace: preset.colorSpace))
            step = "PNG"
        case .pngSequence(let text, let depth):
            let pattern = try FramePattern(text)
            try request.alpha.check(
                target: .pngSequence(pattern), hasTransparency: preset.hasTransparency, height: preset.height)
            sink = try PNGSequenceSink(
                pattern: pattern, firstFrame: selection.frames.lowerBound, depth: depth.bits,
                alpha: preset.hasTransparency, options: PNGOptions(colorSpace: preset.colorSpace))
            step = "PNG"
        case .raw(let format):
            try request.alpha.check(
                target: .raw, hasTransparency: preset.hasTransparency, height: preset.height, rawFormat: format)
            sink = RawSink(format: format)
            step = "raw"
        case .video(let path, let container, let codec):
            let video = try VideoOutput(
                request, path: path, container: container, codec: codec ?? .h264, frameCount: selection.frames.count,
                preset: &preset, hooks: hooks)
            sink = video.sink
            step = video.stepName
        case .bundle:
            preconditionFailure("a bundle is written above")
        }
        let plan = RenderPlan(
            preset: preset, frames: selection.frames, time: selection.time, dither: request.dither,
            threads: request.threads)
        hooks.emit(.started(width: preset.width, height: preset.height, frameCount: selection.frames.count))
        let progress = EventProgress(steps: [(step, selection.frames.count)]) { hooks.emit(.progress($0)) }
        try FramePipeline.run(plan, into: sink, progress: progress.reporter(for: 0), shouldStop: hooks.shouldStop)
        return RenderSummary(width: preset.width, height: preset.height, frameCount: selection.frames.count, loops: [])
    }

    /// Writes a bundle into `directory`, `encodesAtOnce` files at a time (all when nil),
    /// each loop at its codec's rate in `rates` or a searched one.
    private static func writeBundle(
        _ request: WriteRequest, to directory: String, encodesAtOnce: Int?, rates: [Output.BundleCodec: Int],
        hooks: WriteHooks
    ) throws -> RenderSummary {
        let preset = request.preset
        let display = try preset.checked(
            width: request.width, height: request.height, times: [0, Double(preset.frameCount - 1) / preset.fps])
        // The loop is grain-free (the page lays the grain over it), so its size is the one without.
        let size = try (request.encodeSize ?? .auto).resolve(
            for: display.withoutGrain, container: .mp4, path: directory)
        if !display.loop {
            hooks.emit(
                .note(
                    "the preset does not loop, so the page's loop jumps from the last frame to the first; "
                        + "add --loop for a seamless one"))
        }
        hooks.emit(.started(width: size.width, height: size.height, frameCount: display.frameCount))
        let manifest = try BundleWriter.write(
            BundleRequest(
                preset: display, directory: directory, encodeSize: size, dither: request.dither,
                threads: request.threads, rates: rates, encodesAtOnce: encodesAtOnce ?? .max,
                generator: request.generator,
                announce: { hooks.emit(.ffmpegCommand($0)) }, progress: { hooks.emit(.progress($0)) },
                shouldStop: hooks.shouldStop))
        let loops = manifest.files.filter { $0.role.hasSuffix("loop") }.map {
            RenderSummary.Loop(file: $0.file, bytes: $0.bytes)
        }
        return RenderSummary(width: size.width, height: size.height, frameCount: display.frameCount, loops: loops)
    }
}

/// The frames a request renders, checked against its output.
private struct FrameChoice {
    let frames: ClosedRange<Int>
    /// The instant of a one-frame output, instead of `frames.lowerBound / fps`.
    let time: Double?
    /// The instants to check against the preset's bounds: the first and the last.
    let times: [Double]

    /// The frames `selection` picks; a single PNG takes the first of them, or the instant 0
    /// of all of them.
    ///
    /// - Throws: ``OutputError/noFrames`` for an empty range.
    init(_ selection: FrameSelection, output: Output, preset: Preset) throws(OutputError) {
        var single = false
        if case .png = output { single = true }
        switch selection {
        case .instant(let time):
            (frames, self.time, times) = (0...0, time, [time])
        case .all where single:
            (frames, time, times) = (0...0, 0, [0])
        case .all:
            frames = 0...(preset.frameCount - 1)
            (time, times) = (nil, [0, Double(preset.frameCount - 1) / preset.fps])
        case .range(let range):
            guard !range.isEmpty else { throw .noFrames }
            let last = single ? range.lowerBound : range.upperBound - 1
            frames = range.lowerBound...last
            (time, times) = (nil, [Double(range.lowerBound) / preset.fps, Double(last) / preset.fps])
        }
    }
}

extension Frame.Depth {
    /// 8 or 16.
    package var bits: Int { self == .sixteen ? 16 : 8 }
}

extension Preset {
    /// Whether the preset's frames have transparency.
    var hasTransparency: Bool { frameSpec.hasTransparency }
}
