import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Render: AsyncParsableCommand {
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
                + "Each loop's rate is searched: the fewest bytes that meet its quality bar on an excerpt. "
                + "An earlier bundle in DIR is replaced whole.",
            valueName: "DIR"))
    var bundle: String?

    @Option(
        name: .customLong("crf"),
        help: ArgumentHelp(
            "With --bundle, a loop's rate of your own instead of the searched one: CODEC=CRF, where CODEC is av1 "
                + "(0-63), hevc (0-51), h264 (0-51) or vp9 (0-63); repeat it for several codecs.",
            valueName: "CODEC=CRF"))
    var rates: [String] = []

    @Option(
        help: ArgumentHelp(
            "The codec of an .mp4: h264 (default; 8-bit, what every player takes), hevc (10-bit, tagged hvc1 for "
                + "Safari and QuickTime) or av1 (10-bit, the smallest files).",
            valueName: "CODEC"))
    var codec: VideoCodec?

    func validate() throws {
        if bundle != nil { return try validateBundle() }
        _ = try bundleRates()
        guard let path = output.output else {
            throw ValidationError("give -o OUTPUT (such as out.png or out.mp4) or --bundle DIR")
        }
        let target = try Output(path: path)
        try validateFrameChoice(for: target)
        try validateSampleFormat(for: target)
        try validateVideoOptions(for: target)
        if case .raw = target, isatty(1) != 0 {
            throw ValidationError(
                "-o - writes raw frames to standard output, which is a terminal; "
                    + "pipe it into a program, or give a file such as out.mp4")
        }
    }

    /// Checks that `--time` and `--frame-range` suit `target` and are not both given.
    ///
    /// - Throws: `ValidationError` for a choice of frames the output cannot take.
    private func validateFrameChoice(for target: Output) throws {
        if case .png = target {
            if timing.frameRange != nil {
                throw ValidationError(
                    "a single PNG holds one frame, so --frame-range does not apply; "
                        + "use a pattern such as frames/%05d.png")
            }
        } else if timing.time != nil, !target.isRaw {
            throw ValidationError(
                "--time picks the instant of a one-frame output (out.png or -); "
                    + "for a sequence or video use --frame-range")
        }
        if timing.time != nil, timing.frameRange != nil {
            throw ValidationError("--time and --frame-range both pick frames; give one")
        }
        if timing.frameRange != nil, case .video(_, let container, _) = target, !container.joinsPieces {
            throw ValidationError(
                "--frame-range: an animated image (.\(container.rawValue)) is one loop, and its pieces do not join; "
                    + "render the range as a video piece (.mp4, .mov or .webm, joined by ffmpeg's concat demuxer) "
                    + "or as PNG frames, and make the animated image from the whole")
        }
    }

    /// Checks that `--depth` and `--pixel-format` apply to `target` and agree.
    ///
    /// - Throws: `ValidationError` for a depth or pixel format the output does not take.
    private func validateSampleFormat(for target: Output) throws {
        switch target {
        case .video, .bundle:
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
    private func validateVideoOptions(for target: Output) throws {
        if let encodeSize {
            _ = try EncodeSizeRequest(parsing: encodeSize)
            guard case .video = target else {
                throw ValidationError(
                    "--encode-size applies to video and animated-image outputs (.mp4, .webm, .gif, .mov); "
                        + "PNG and raw frames are written at --size")
            }
        }
        if let codec {
            guard case .video(let path, let container, _) = target else {
                throw ValidationError(
                    "--codec chooses the codec of an .mp4 (h264, hevc or av1); PNG and raw output have none")
            }
            try Output.video(path: path, container: container, codec: codec).check()
        }
        if ffmpegOptions != nil, case .video = target {
        } else if ffmpegOptions != nil {
            throw ValidationError(
                "--ffmpeg-options applies to video and animated image outputs "
                    + "(.mp4, .mov, .webm, .gif, .webp, .apng, .avif)")
        }
    }

    func run() async throws {
        var preset = try scene.resolve()
        try timing.apply(to: &preset)
        if let bundle { return try await writeBundle(of: preset, to: bundle) }
        let outputPath = output.output ?? "-"
        let target = try chosenOutput(Output(path: outputPath))
        let frames = try frameSelection(for: preset)
        // Split first: words that do not split are refused before anything starts.
        let extraOptions = try ffmpegOptions.map(FFmpegOptions.words) ?? []
        let encodeSize = try encodeSize.map(EncodeSizeRequest.init(parsing:))
        let (width, height) = (preset.width, preset.height)
        let printer = EventPrinter(quiet: output.quiet, verbose: output.verbose, showsProgress: !target.isRaw) {
            outputPath + ($0 == width && $1 == height ? "" : " at \($0)x\($1)")
        }
        let start = Date()
        let summary = try await printer.rendering { events throws(RenderError) in
            try await preset.write(
                to: target, frames: frames, encodeSize: encodeSize, alpha: output.alpha, dither: output.dither == .on,
                threads: output.threading.threadCount, ffmpegOptions: extraOptions, events: events)
        }
        if output.stats { printStats(summary, since: start) }
    }

    /// `parsed`, with the depth, codec and pixel format the options choose.
    private func chosenOutput(_ parsed: Output) -> Output {
        let depth: Frame.Depth = output.depth == 16 ? .sixteen : .eight
        switch parsed {
        case .png(let path, _): return .png(path: path, depth: depth)
        case .pngSequence(let pattern, _): return .pngSequence(pattern: pattern, depth: depth)
        case .video(let path, let container, _): return .video(path: path, container: container, codec: codec)
        case .raw: return .raw(format: output.pixelFormat ?? (depth == .sixteen ? .rgba64le : .rgba))
        case .bundle: return parsed
        }
    }

    /// The frames to render: every frame, `--frame-range`'s, or the instant `--time` of a
    /// one-frame output (a PNG shows instant 0 without it).
    ///
    /// - Parameter preset: The preset, with its duration set.
    /// - Throws: ``CommandError`` for a frame range that is malformed or past the last frame.
    private func frameSelection(for preset: Preset) throws -> FrameSelection {
        if let time = timing.time { return .instant(time) }
        if let range = timing.frameRange {
            let frames = try TimingOptions.parseFrameRange(range, frameCount: preset.frameCount)
            return .range(frames.lowerBound..<(frames.upperBound + 1))
        }
        return .all
    }

    /// Prints `--stats`' line to stderr: frames, size, time, frames per second and peak memory.
    ///
    /// - Parameters:
    ///   - summary: What was rendered.
    ///   - start: When rendering began.
    private func printStats(_ summary: RenderSummary, since start: Date) {
        let seconds = Date().timeIntervalSince(start)
        printError(
            "rendered \(counted(summary.frameCount, "frame")) of \(summary.width)x\(summary.height)"
                + String(
                    format: " in %.2f s (%.1f fps); peak memory of this process %.1f MiB",
                    seconds, Double(summary.frameCount) / seconds,
                    Double(ProcessMemory.peakResidentBytes) / 1_048_576))
    }
}

extension Output {
    /// Whether this is raw frames on standard output.
    var isRaw: Bool {
        if case .raw = self { return true }
        return false
    }
}
