import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a preset to a PNG, a PNG sequence, a video or raw frames.",
        discussion: """
            The output name picks the format: a .png file holds one frame (the instant --time, default 0); \
            a pattern such as frames/%05d.png holds numbered frames; .mp4 (H.264; 10-bit HEVC or AV1 with \
            --codec hevc or av1; BT.709), .mov (ProRes 4444 with alpha), .webm (VP9), .gif (at most 50 fps: \
            above that it keeps every 2nd frame, or every k-th) \
            and the animated images .webp (lossy), .apng (lossless) and .avif (AV1), which loop forever and keep \
            alpha, are encoded by the ffmpeg binary; - writes raw frames to stdout.

            Flags override the preset's keys; a flag left out keeps the preset's value, which \
            `fluidgradient presets show NAME` lists (the default preset: \(defaultPresetSettings)). Files appear \
            under their final name only when complete.

            Examples:
              fluidgradient render -o still.png
              fluidgradient render --preset aurora --duration 10 --loop -o aurora.mp4
              fluidgradient render --preset aurora --duration 10 --loop --bundle web/hero
              fluidgradient render --colors "#FF5F6D,#FFC371,teal" \\
                --background "linear 270 #0B1026, #3B1E54" -o brand.png
              mkdir -p frames && fluidgradient render --preset sunset --frames 120 \\
                -o frames/%05d.png
              fluidgradient render --preset ocean --size 640x360 --frames 60 -o - \\
                | ffplay -f rawvideo -pixel_format rgba -video_size 640x360 \\
                -framerate 60 -
            """
    )

    /// The default preset's settings that flags override, for the help.
    static var defaultPresetSettings: String {
        guard let preset = try? PresetLibrary.builtIn(PresetLibrary.defaultName) else {
            return "see presets show default"
        }
        let format = ParameterRange.format
        return "\(preset.width)x\(preset.height), \(format(preset.fps)) fps, \(format(preset.duration)) s, "
            + (preset.loop ? "loop" : "no loop") + ", speed \(format(preset.speed)), blur \(format(preset.blur)), "
            + "point scale \(format(preset.pointScale)), \(preset.edges.rawValue) edges, seed \(preset.seed)"
    }

    @OptionGroup(title: "Scene")
    var scene: SceneOptions

    @OptionGroup(title: "Timing")
    var timing: TimingOptions

    @OptionGroup(title: "Output")
    var output: OutputOptions

    @Option(
        text: ArgumentHelp(
            "Extra ffmpeg output options for video, such as \"-crf 23 -preset slow\" (they follow ours, so they "
                + "win; a rate option such as -b:v replaces our -crf), as one quoted value. Split into words as a "
                + "shell would: quote values with spaces, as in \"-metadata title='My clip'\". A filter (-vf) is "
                + "refused for .mov, .gif and transparent .webm, whose colour conversion is a filter of ours.",
            valueName: "OPTIONS"))
    var ffmpegOptions: String?

    @Option(
        help: ArgumentHelp(
            "The size a video or animated image is encoded at, for players to scale up to --size: auto (the "
                + "default, but full for .mov) picks the smallest size whose bilinear upscale stays within 1 level of "
                + "the full-size frame, full keeps --size, or WxH of the same aspect ratio. The frames are rendered at "
                + "that size, not scaled down.",
            valueName: "auto|full|WxH"))
    var encodeSize: String?

    @Option(
        help: ArgumentHelp(
            "Instead of -o, write everything a site or app needs for the loop into the directory DIR: the loop as "
                + "AV1, HEVC and H.264 .mp4 and VP9 .webm at the encode size (stacked alpha and the player when the "
                + "background is transparent), posters, index.html and manifest.json with each file's bytes and PSNR. "
                + "An earlier bundle in DIR is replaced whole.",
            valueName: "DIR"))
    var bundle: String?

    @Option(
        help: ArgumentHelp(
            "The codec of an .mp4: h264 (default; 8-bit, what every player takes), hevc (10-bit, tagged hvc1 for "
                + "Safari and QuickTime) or av1 (10-bit, the smallest files).",
            valueName: "CODEC"))
    var codec: VideoCodec?

    func validate() throws {
        if bundle != nil { return try validateBundle() }
        guard let path = output.output else {
            throw ValidationError("give -o OUTPUT (such as out.png or out.mp4) or --bundle DIR")
        }
        let target = try OutputTarget(parsing: path)
        try validateFrameChoice(for: target)
        try validateSampleFormat(for: target)
        try validateVideoOptions(for: target)
        if target == .raw, isatty(1) != 0 {
            throw ValidationError(
                "-o - writes raw frames to standard output, which is a terminal; "
                    + "pipe it into a program, or give a file such as out.mp4")
        }
    }

    /// Checks that `--time` and `--frame-range` suit `target` and are not both given.
    ///
    /// - Throws: `ValidationError` for a choice of frames the output cannot take.
    private func validateFrameChoice(for target: OutputTarget) throws {
        if target.isSingleFrame {
            if timing.frameRange != nil {
                throw ValidationError(
                    "a single PNG holds one frame, so --frame-range does not apply; "
                        + "use a pattern such as frames/%05d.png")
            }
        } else if timing.time != nil, target != .raw {
            throw ValidationError(
                "--time picks the instant of a one-frame output (out.png or -); "
                    + "for a sequence or video use --frame-range")
        }
        if timing.time != nil, timing.frameRange != nil {
            throw ValidationError("--time and --frame-range both pick frames; give one")
        }
        if timing.frameRange != nil, case .video(_, let container) = target, !container.joinsPieces {
            throw ValidationError(
                "--frame-range: an animated image (.\(container.rawValue)) is one loop, and its pieces do not join; "
                    + "render the range as a video piece (.mp4, .mov or .webm, joined by ffmpeg's concat demuxer) "
                    + "or as PNG frames, and make the animated image from the whole")
        }
    }

    /// Checks that `--depth` and `--pixel-format` apply to `target` and agree.
    ///
    /// - Throws: `ValidationError` for a depth or pixel format the output does not take.
    private func validateSampleFormat(for target: OutputTarget) throws {
        switch target {
        case .video:
            if output.depth != nil || output.pixelFormat != nil {
                throw ValidationError(
                    "video outputs choose their own depth and pixel format; "
                        + "--depth and --pixel-format apply to PNG and raw output")
            }
        case .png, .pngSequence:
            if output.pixelFormat != nil {
                throw ValidationError(
                    "--pixel-format applies to raw output (-o -); PNGs are RGB or RGBA, 8 or 16 bits (--depth)")
            }
        case .raw:
            if let format = output.pixelFormat, let depth = output.depth, format.bitDepth != depth {
                throw ValidationError(
                    "--pixel-format \(format.rawValue) is \(format.bitDepth)-bit, but --depth is \(depth)")
            }
        }
    }

    /// Checks that `--encode-size`, `--codec` and `--ffmpeg-options` are given only for a
    /// video or animated image, and that the codec suits its container.
    ///
    /// - Throws: `ValidationError` for an option the output does not take, and what parsing
    ///   the encode size or checking the codec throws.
    private func validateVideoOptions(for target: OutputTarget) throws {
        if let encodeSize {
            _ = try EncodeSizeRequest(parsing: encodeSize)
            guard case .video = target else {
                throw ValidationError(
                    "--encode-size applies to video and animated-image outputs (.mp4, .webm, .gif, .mov); "
                        + "PNG and raw frames are written at --size")
            }
        }
        if let codec {
            guard case .video(let path, let container) = target else {
                throw ValidationError(
                    "--codec chooses the codec of an .mp4 (h264, hevc or av1); PNG and raw output have none")
            }
            try VideoCodec.check(codec, for: container, path: path)
        }
        if ffmpegOptions != nil, case .video = target {
        } else if ffmpegOptions != nil {
            throw ValidationError(
                "--ffmpeg-options applies to video and animated image outputs "
                    + "(.mp4, .mov, .webm, .gif, .webp, .apng, .avif)")
        }
    }

    func run() throws {
        var preset = try scene.resolve()
        try timing.apply(to: &preset)
        if let bundle { return try writeBundle(of: preset, to: bundle) }
        let outputPath = output.output ?? "-"
        let target = try OutputTarget(parsing: outputPath)
        let depth = output.depth ?? 8
        let (frames, time) = try frameSelection(for: target, preset: preset)
        let encodeNote = try applyEncodeSize(to: &preset, target: target)
        let label = outputPath + (encodeNote == nil ? "" : " at \(preset.width)x\(preset.height)")
        var notes = encodeNote.map { [$0] } ?? []
        if case .video(let path, let container) = target,
            container.colorSpace(for: preset.colorSpace) != preset.colorSpace
        {
            preset.colorSpace = container.colorSpace(for: preset.colorSpace)
            notes.append("a GIF carries no colour space, so \(path) is rendered in sRGB, its colours gamut mapped")
        }
        try output.alpha.check(
            target: target, hasTransparency: preset.frameSpec.hasTransparency, height: preset.height,
            rawFormat: output.pixelFormat ?? (depth == 16 ? .rgba64le : .rgba))
        let sink: FrameSink
        switch target {
        case .png(let path):
            sink = try PNGFileSink(
                path: path, depth: depth, alpha: preset.frameSpec.hasTransparency,
                options: PNGOptions(colorSpace: preset.colorSpace))
        case .pngSequence(let pattern):
            sink = try PNGSequenceSink(
                pattern: pattern, firstFrame: frames.lowerBound, depth: depth, alpha: preset.frameSpec.hasTransparency,
                options: PNGOptions(colorSpace: preset.colorSpace))
        case .video(let path, let container):
            sink = try videoSink(
                path: path, container: container, preset: preset, frameCount: frames.count, notes: notes)
        case .raw:
            sink = RawSink(format: output.pixelFormat ?? (depth == 16 ? .rgba64le : .rgba))
        }
        let plan = RenderPlan(
            preset: preset, frames: frames, time: time, dither: output.dither == .on,
            threads: output.threading.threadCount)
        let start = Date()
        try FramePipeline.run(
            plan, into: sink,
            progress: TerminalProgress.ifTerminal(quiet: output.quiet || target == .raw, label: label))
        if output.stats { printStats(frameCount: frames.count, preset: preset, since: start) }
    }

    /// The frames to render and, for a one-frame output, the instant it shows.
    ///
    /// - Parameters:
    ///   - target: The output.
    ///   - preset: The preset, with its duration set.
    /// - Returns: every frame, `--frame-range`'s, or frame 0 with `--time` (default 0) for one frame.
    /// - Throws: ``CommandError`` for a frame range that is malformed or past the last frame.
    private func frameSelection(
        for target: OutputTarget, preset: Preset
    ) throws -> (frames: ClosedRange<Int>, time: Double?) {
        if target.isSingleFrame || (target == .raw && timing.time != nil) {
            return (0...0, timing.time ?? 0)
        }
        if let range = timing.frameRange {
            return (try TimingOptions.parseFrameRange(range, frameCount: preset.frameCount), nil)
        }
        return (0...(preset.frameCount - 1), nil)
    }

    /// The ffmpeg sink for a video or animated image, with `--alpha stacked`'s layout when
    /// asked; prints the notes on what the output cannot keep unless `--quiet`.
    ///
    /// - Parameters:
    ///   - path: The output file.
    ///   - container: Its container.
    ///   - preset: The preset, at its encode size.
    ///   - frameCount: The number of frames to encode.
    ///   - notes: What the output changes of what was asked (its encode size, its colour space).
    /// - Returns: the sink that takes the rendered frames.
    /// - Throws: ``CommandError`` for `--ffmpeg-options` that do not split into words, and what
    ///   ``VideoSink`` throws for a size or options the container refuses or an ffmpeg that fails to start.
    private func videoSink(
        path: String, container: VideoContainer, preset: Preset, frameCount: Int, notes earlier: [String]
    ) throws -> FrameSink {
        let stacked = output.alpha == .stacked
        // The stacked layout's tag follows the user's options, so that it wins.
        let extraOptions =
            try (ffmpegOptions.map(FFmpegOptions.words) ?? [])
            + (stacked ? StackedAlphaSink.ffmpegOptions(height: preset.height) : [])
        let video = try VideoSink(
            path: path, container: container, codec: codec ?? .h264, width: preset.width,
            height: stacked ? StackedAlphaSink.storedHeight(preset.height) : preset.height, fps: preset.fps,
            frameCount: frameCount,
            hasTransparency: preset.frameSpec.hasTransparency && !stacked, colorSpace: preset.colorSpace,
            extraOptions: extraOptions,
            announce: output.verbose ? { printWhole("ffmpeg command: \($0)") } : nil)
        if !output.quiet {
            let notes = video.encoding.notes(for: path, fps: preset.fps, extraOptions: extraOptions)
            for note in earlier + notes { printError("note: " + note) }
        }
        guard stacked else { return video }
        return StackedAlphaSink(
            wrapping: video, width: preset.width, height: preset.height, dither: output.dither == .on,
            threads: output.threading.threadCount)
    }

    /// Prints `--stats`' line to stderr: frames, size, time, frames per second and peak memory.
    ///
    /// - Parameters:
    ///   - frameCount: The number of frames rendered.
    ///   - preset: The preset rendered.
    ///   - start: When rendering began.
    private func printStats(frameCount: Int, preset: Preset, since start: Date) {
        let seconds = Date().timeIntervalSince(start)
        printError(
            "rendered \(counted(frameCount, "frame")) of \(preset.width)x\(preset.height)"
                + String(
                    format: " in %.2f s (%.1f fps); peak memory of this process %.1f MiB",
                    seconds, Double(frameCount) / seconds, Double(ProcessMemory.peakResidentBytes) / 1_048_576))
    }

    /// For a video, replaces `preset` by the preset at its encode size (`--encode-size`, or
    /// the container's default) when that differs from the output size.
    ///
    /// - Returns: the note that says so, or nil when the size stays.
    /// - Throws: ``OutputError`` for an encode size the output cannot take.
    private func applyEncodeSize(to preset: inout Preset, target: OutputTarget) throws -> String? {
        guard case .video(let path, let container) = target else { return nil }
        let request = try encodeSize.map(EncodeSizeRequest.init(parsing:)) ?? .standard(for: container)
        let size = try request.resolve(for: preset, container: container, path: path)
        guard let note = size.note(for: preset, path: path) else { return nil }
        preset = preset.rendered(at: size)
        return note
    }
}
