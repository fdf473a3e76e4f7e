import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the engine: per-stage times and frames per second, frames made and discarded.",
        discussion: """
            Stages: simulate (the animation state), raster (compositing on the working grid), \
            blur (the grid's Gaussian and its 2× refinement), output (resample, background, dither, quantise, \
            pack) and, with \
            --encode png, PNG encoding in memory. Each run renders --frames frames; with --repeat the median \
            run is reported. Build with `swift build -c release` first: debug builds are many times slower.

            --check-accuracy also renders the first frame with the slow reference path (full resolution, \
            direct convolution) and reports the largest and mean difference in 8-bit levels, dither off. \
            At 3840x2160 that takes minutes.
            """
    )

    @Option(help: "A built-in preset name or a preset .json file.")
    var preset: String = PresetLibrary.defaultName

    @Option(help: ArgumentHelp("Frame size.", valueName: "WxH"))
    var size: String = "1920x1080"

    @Option(parsing: .unconditional, help: "Frames per run.", transform: number)
    var frames: Int = 600

    @Option(parsing: .unconditional, help: "Runs; the median is reported.", transform: number)
    var `repeat`: Int = 1

    @Option(help: ArgumentHelp("Override the blur exponent.", valueName: "E"), transform: number)
    var blur: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Use this many base blobs (1 to 64), cycling the preset's colours; its highlight blobs come on top.",
            valueName: "N"), transform: number)
    var blobs: Int?

    @Option(
        help: ArgumentHelp("Output layout: rgba, rgb24, rgba64le, rgb48le, yuv420p or yuv420p10le.", valueName: "FMT"))
    var pixelFormat: PixelFormat = .rgba

    @OptionGroup var grain: GrainOptions

    @OptionGroup var threading: ThreadOptions

    @Option(help: ArgumentHelp("Also encode each frame: none or png.", valueName: "none|png"))
    var encode: String = "none"

    @Flag(help: "Compare the first frame with the reference path and report the error.")
    var checkAccuracy = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard frames >= 1, `repeat` >= 1 else { throw ValidationError("--frames and --repeat must be at least 1") }
        guard ["none", "png"].contains(encode) else { throw ValidationError("--encode must be none or png") }
        if let blobs, !(1...64).contains(blobs) { throw ValidationError("--blobs must be 1 to 64") }
    }

    func run() throws {
        let preset = try benchPreset()
        let threadCount = threading.threadCount
        var runs: [BenchRun] = []
        for _ in 0..<`repeat` {
            runs.append(
                try BenchRun.measure(
                    preset: preset, frames: frames, format: pixelFormat, threads: threadCount,
                    encodePNG: encode == "png"))
        }
        let median = runs.sorted { $0.total < $1.total }[runs.count / 2]
        var accuracy: (max: Double, mean: Double)?
        if checkAccuracy {
            accuracy = try Interruption.runUntilDone { [preset] in
                BenchRun.accuracy(preset: preset, threads: threadCount)
            }
        }
        if json {
            printJSON(of: median, preset: preset, threads: threadCount, accuracy: accuracy)
        } else {
            printTable(of: median, preset: preset, threads: threadCount, accuracy: accuracy)
        }
    }

    /// The preset to time: `--preset` at `--size`, with `--blur`, the grain options and `--blobs` applied.
    ///
    /// - Throws: ``CommandError`` for an unusable size, ``SceneOptionError`` for a blur out of range,
    ///   and what loading the preset throws.
    private func benchPreset() throws -> Preset {
        var preset = try PresetLibrary.load(self.preset)
        guard let parsed = PresetLimits.parseSize(size),
            PresetLimits.checkSize(width: parsed.width, height: parsed.height) == nil
        else {
            throw CommandError.input("--size: \"\(size)\" is not a usable size such as 1920x1080")
        }
        (preset.width, preset.height) = parsed
        if let blur { preset.blur = try check(blur, "blur", PresetLimits.blur) }
        try grain.apply(to: &preset)
        if let blobs {
            let palette = preset.colors.isEmpty ? [RGBA.white] : preset.colors
            preset.colors = (0..<blobs).map { palette[$0 % palette.count] }
            preset.blobs = nil
        }
        return preset
    }

    /// The number of blobs drawn, base and highlight, counted in the first frame's scene.
    private static func blobCount(of preset: Preset) -> Int {
        let scene = Animator(preset: preset).scene(at: 0)
        return scene.base.count + scene.highlights.count
    }

    /// Prints the result as one JSON object on stdout.
    ///
    /// - Parameters:
    ///   - median: The median run.
    ///   - preset: The preset timed.
    ///   - threads: The thread count.
    ///   - accuracy: The largest and mean error against the reference path, when measured.
    private func printJSON(
        of median: BenchRun, preset: Preset, threads: Int, accuracy: (max: Double, mean: Double)?
    ) {
        var fields: [(String, JSONValue)] = [
            ("preset", .string(preset.name)), ("width", .number(Double(preset.width))),
            ("height", .number(Double(preset.height))),
            ("frames", .number(Double(frames))), ("threads", .number(Double(threads))),
            ("pixelFormat", .string(pixelFormat.rawValue)),
            ("blobs", .number(Double(Self.blobCount(of: preset)))), ("sigma", .number(preset.frameSpec.sigma)),
            ("fps", .number(Double(frames) / median.total)),
        ]
        for (name, seconds) in median.stages {
            fields.append((name + "Milliseconds", .number(seconds / Double(frames) * 1000)))
        }
        if let accuracy {
            fields += [("maxErrorLevels", .number(accuracy.max)), ("meanErrorLevels", .number(accuracy.mean))]
        }
        print(JSONValue.object(fields.map { ($0.0, JSONNode($0.1)) }).serialized())
    }

    /// Prints the result as a heading, a table of milliseconds per frame by stage, and the total.
    ///
    /// - Parameters:
    ///   - median: The median run.
    ///   - preset: The preset timed.
    ///   - threads: The thread count.
    ///   - accuracy: The largest and mean error against the reference path, when measured.
    private func printTable(
        of median: BenchRun, preset: Preset, threads: Int, accuracy: (max: Double, mean: Double)?
    ) {
        let grid = FrameRenderer(spec: preset.frameSpec).cellSize
        print(
            String(
                format: "%@ %dx%d, %@ × %@, %@, %@, %@, sigma %.1f px on cells of %.1f px",
                preset.name, preset.width, preset.height, counted(frames, "frame"), counted(`repeat`, "run"),
                pixelFormat.rawValue,
                counted(threads, "thread"), counted(Self.blobCount(of: preset), "blob"), preset.frameSpec.sigma, grid))
        print("stage         ms/frame")
        for (name, seconds) in median.stages where seconds > 0 || name != "encode" {
            print(
                name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: "%8.3f", seconds / Double(frames) * 1000))
        }
        print(
            String(
                format: "total         %8.3f   %.1f fps", median.total / Double(frames) * 1000,
                Double(frames) / median.total))
        if let accuracy {
            print(
                String(
                    format:
                        "accuracy: largest error %.3f levels, mean %.4f levels (8-bit, dither off; limits 2 and 0.5)",
                    accuracy.max, accuracy.mean))
        }
    }
}

/// One timed run of the engine.
struct BenchRun {
    var stages: [(String, Double)]
    var total: Double

    static func measure(preset: Preset, frames: Int, format: PixelFormat, threads: Int, encodePNG: Bool) throws
        -> BenchRun
    {
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: threads)
        var buffer = PixelBuffer(width: preset.width, height: preset.height, format: format)
        let scratch = NSTemporaryDirectory() + "fluidgradient-bench-\(getpid()).png"
        let cleanupSlot = Interruption.register(temporaryPath: scratch)
        defer {
            unlink(scratch)
            Interruption.unregister(temporaryPathSlot: cleanupSlot)
        }
        var simulate = 0.0, encode = 0.0
        let start = DispatchTime.now().uptimeNanoseconds
        for frame in 0..<frames {
            try Interruption.check()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let scene = animator.scene(at: Double(frame) / preset.fps)
            simulate += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            renderer.render(scene, frameIndex: frame, into: &buffer)
            if encodePNG {
                let t1 = DispatchTime.now().uptimeNanoseconds
                try PNGFile.encode(
                    buffer, toPath: scratch, options: PNGOptions(), displayPath: scratch,
                    alpha: preset.frameSpec.hasTransparency)
                encode += Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9
            }
        }
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let times = renderer.times
        return BenchRun(
            stages: [
                ("simulate", simulate), ("raster", times.raster), ("blur", times.blur), ("output", times.output),
                ("encode", encode),
            ],
            total: total)
    }

    /// The first frame against the reference path, in 8-bit levels with dither off.
    static func accuracy(preset: Preset, threads: Int) -> (max: Double, mean: Double) {
        let scene = Animator(preset: preset).scene(at: 0)
        let reference = ReferenceRenderer.render(scene, spec: preset.frameSpec, threads: threads)
        let alpha = preset.frameSpec.hasTransparency
        var buffer = PixelBuffer(width: preset.width, height: preset.height, format: .packed(depth: 8, alpha: alpha))
        FrameRenderer(spec: preset.frameSpec, threads: threads).render(scene, dither: false, into: &buffer)
        var largest = 0.0, total = 0.0
        let channels = alpha ? 4 : 3
        for y in 0..<preset.height {
            for x in 0..<preset.width {
                let samples = buffer.channels(x: x, y: y).map { Double($0) / 255 }
                let a = alpha ? samples[3] : 1
                for lane in 0..<channels {
                    let actual = lane == 3 ? a : samples[lane] * a
                    let difference = abs(actual - reference[x, y][lane]) * 255
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        return (largest, total / Double(preset.width * preset.height * channels))
    }
}
