import FluidGradientIO
import Foundation
import Testing

/// `Preset.write(to:…)`, the one road the command, the batch and the studio take: the
/// command's bytes for the same output, format, codec, alpha, encode size and frames, its
/// events in order, and a cancellation that leaves nothing behind.
@Suite struct WriteTests {
    /// A short clip: 6 frames at 128x72, large enough for every encoder.
    static func clip(transparent: Bool = false) throws -> Preset {
        var preset = try Preset(builtIn: "aurora")
        (preset.width, preset.height, preset.fps, preset.duration, preset.loop) = (128, 72, 12, 0.5, true)
        if transparent { preset.background = .color(.clear) }
        return preset
    }

    /// Writes `preset` into `output` and collects every event it sent.
    static func written(
        _ preset: Preset, to output: Output, frames: FrameSelection = .all, width: Int? = nil, height: Int? = nil,
        encodeSize: EncodeSizeRequest? = nil, alpha: AlphaMode = .auto
    ) async throws -> (summary: RenderSummary, events: [RenderEvent]) {
        let (stream, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let collecting = Task { await stream.reduce(into: []) { $0.append($1) } }
        let summary = try await preset.write(
            to: output, frames: frames, width: width, height: height, encodeSize: encodeSize, alpha: alpha,
            events: continuation)
        return (summary, await collecting.value)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The command's file and the library's, for the same choices, byte for byte.
    @Test(arguments: [
        (["--encode-size", "auto", "-o"], "a.mp4", EncodeSizeRequest?.some(.auto), AlphaMode.auto, VideoCodec?.none),
        (["--encode-size", "full", "-o"], "b.mp4", .full, .auto, nil),
        (["--codec", "hevc", "-o"], "c.mp4", nil, .auto, .hevc),
        (["--background", "transparent", "--alpha", "stacked", "-o"], "d.mp4", nil, .stacked, nil),
        (["-o"], "e.webm", nil, .auto, nil),
    ])
    func aVideoIsTheCommandsFile(
        flags: [String], name: String, encodeSize: EncodeSizeRequest?, alpha: AlphaMode, codec: VideoCodec?
    ) async throws {
        let scratch = Scratch()
        let result = run(
            ["render", "--preset", "aurora", "--size", "640x360", "--fps", "12", "--duration", "0.5"] + flags
                + [scratch.file("cli-" + name)])
        #expect(result.status == 0, "\(result.stderr)")
        var preset = try Preset(builtIn: "aurora")
        (preset.fps, preset.duration) = (12, 0.5)
        if alpha == .stacked { preset.background = .color(.clear) }
        let container = try #require(VideoContainer(rawValue: String(name.split(separator: ".")[1])))
        let (summary, events) = try await Self.written(
            preset, to: .video(path: scratch.file(name), container: container, codec: codec), width: 640, height: 360,
            encodeSize: encodeSize, alpha: alpha)
        #expect(try Self.bytes(scratch.file(name)) == Self.bytes(scratch.file("cli-" + name)))
        #expect(summary.frameCount == 6 && (encodeSize == .full ? summary.width == 640 : summary.width < 640))
        // The notes the command printed are the events' notes.
        let notes = events.compactMap { if case .note(let note) = $0 { note } else { nil } }
        let printed = result.stderr.split(separator: "\n").filter { $0.hasPrefix("fluidgradient: note: ") }
        #expect(
            notes.map { $0.replacingOccurrences(of: scratch.file(name), with: scratch.file("cli-" + name)) }
                == printed.map { String($0.dropFirst("fluidgradient: note: ".count)) })
    }

    /// One PNG at an instant and a range of a PNG sequence, as the command writes them.
    @Test func stillsAndSequencesAreTheCommands() async throws {
        let scratch = Scratch()
        let base = ["render", "--preset", "sunset", "--size", "160x90", "--frames", "30"]
        #expect(run(base + ["--time", "0.7", "--depth", "16", "-o", scratch.file("cli.png")]).status == 0)
        #expect(run(base + ["--frame-range", "7-9", "-o", scratch.file("cli-%02d.png")]).status == 0)
        var preset = try Preset(builtIn: "sunset")
        (preset.width, preset.height, preset.duration) = (160, 90, 30 / preset.fps)
        _ = try await Self.written(
            preset, to: .png(path: scratch.file("api.png"), depth: .sixteen), frames: .instant(0.7))
        #expect(try Self.bytes(scratch.file("api.png")) == Self.bytes(scratch.file("cli.png")))
        let (summary, _) = try await Self.written(
            preset, to: .pngSequence(pattern: scratch.file("api-%02d.png")), frames: .range(7..<10))
        #expect(summary.frameCount == 3)
        for index in 7...9 {
            let name = String(format: "%02d.png", index)
            #expect(try Self.bytes(scratch.file("api-" + name)) == Self.bytes(scratch.file("cli-" + name)))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("api-06.png")))
    }

    /// The events come in order: notes and commands, then the start, then each frame once.
    @Test(arguments: ["mp4", "webm", "mov", "gif", "webp", "apng", "avif"])
    func progressCountsEveryFrameInOrder(container: String) async throws {
        let scratch = Scratch()
        let preset = try Self.clip(transparent: container == "mov")
        let path = scratch.file("clip." + container)
        let (_, events) = try await Self.written(
            preset, to: .video(path: path, container: try #require(VideoContainer(rawValue: container))))
        let started = try #require(events.firstIndex { if case .started = $0 { true } else { false } })
        #expect(events[started] == .started(width: 128, height: 72, frameCount: 6))
        let progress = events[(started + 1)...].compactMap { if case .progress(let p) = $0 { p } else { nil } }
        #expect(progress.count == events.count - started - 1)
        #expect(progress.map { $0.steps.map(\.done) } == (1...6).map { [$0] })
        #expect(progress.allSatisfy { $0.phase == .encoding && $0.steps.first?.total == 6 })
        #expect(progress.map(\.fractionCompleted) == (1...6).map { Double($0) / 6 })
        #expect(scratch.contents == ["clip." + container])
    }

    /// Options that do not fit the output are refused before anything is written, as the
    /// command refuses them, with its words.
    @Test func misfitsAreRefusedAndLeaveNothing() async throws {
        let scratch = Scratch()
        let preset = try Self.clip(transparent: true)
        let cases: [(Output, AlphaMode, EncodeSizeRequest?, RenderError)] = [
            (
                .video(path: scratch.file("a.webm"), container: .webm, codec: .av1), .auto, nil,
                .output(.codecNeedsMP4(codec: "av1", path: scratch.file("a.webm"), container: "webm", holdsIt: true))
            ),
            (
                .video(path: scratch.file("b.mp4"), container: .mp4), .keep, nil,
                .output(.alphaNotKept(path: scratch.file("b.mp4"), container: "mp4"))
            ),
            (
                .video(path: scratch.file("c.mp4"), container: .mp4), .auto, .size(width: 256, height: 144),
                .output(.encodeSizeTooLarge(width: 256, height: 144, outputWidth: 128, outputHeight: 72))
            ),
            (.png(path: scratch.file("d.png")), .stacked, nil, .output(.stackedNeedsMP4)),
            (
                .pngSequence(pattern: scratch.file("e.png")), .auto, nil,
                .output(.noFrameNumber(pattern: scratch.file("e.png")))
            ),
            (
                .bundle(directory: scratch.file("g"), rates: [.hevc: 22, .av1: 64]), .auto, nil,
                .output(.crfOutOfRange(codec: "av1", crf: 64, range: 0...63))
            ),
            (
                .bundle(directory: scratch.file("h"), rates: [.h264: -1]), .auto, nil,
                .output(.crfOutOfRange(codec: "h264", crf: -1, range: 0...51))
            ),
        ]
        for (output, alpha, encodeSize, expected) in cases {
            await #expect(throws: expected) {
                try await preset.write(to: output, encodeSize: encodeSize, alpha: alpha)
            }
            #expect(expected.isInputError)
        }
        await #expect(throws: RenderError.output(.noFrames)) {
            try await preset.write(to: .pngSequence(pattern: scratch.file("%d.png")), frames: .range(3..<3))
        }
        var invalid = preset
        invalid.speed = -1
        do {
            try await invalid.write(to: .png(path: scratch.file("f.png")))
            Issue.record("rendered a preset out of bounds")
        } catch .preset(let error) {
            #expect(PresetError.text(of: error.path) == "speed")
        }
        #expect(scratch.contents == [])
    }

    /// Cancelling the task stops the encode between frames and removes what it wrote.
    @Test(arguments: ["mp4", "webm", "gif", "avif"])
    func aCancelledWriteThrowsAndLeavesNothing(container: String) async throws {
        let scratch = Scratch()
        var preset = try Self.clip()
        // Frames slow enough (1920x1080, 120 of them) that the cancellation lands long before
        // the last, even when other suites' blocking work delays the task that reads the events.
        (preset.width, preset.height, preset.duration) = (1920, 1080, 10)
        let output = Output.video(
            path: scratch.file("clip." + container), container: try #require(VideoContainer(rawValue: container)))
        let (stream, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let task = Task { [preset] in try await preset.write(to: output, encodeSize: .full, events: continuation) }
        var done = 0
        for await case .progress(let progress) in stream {
            done = progress.steps[0].done
            task.cancel()
        }
        await #expect(throws: RenderError.interrupted(InterruptionError(leftBehind: .partialOutputRemoved))) {
            try await task.value
        }
        #expect(done >= 1 && done < preset.frameCount, "\(done)")
        #expect(scratch.contents == [])
    }

    /// A task cancelled before it writes starts nothing, and finishes its events.
    @Test func aWriteCancelledBeforeItStartsWritesNothing() async throws {
        let scratch = Scratch()
        let preset = try Self.clip()
        let (stream, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await preset.write(to: .png(path: scratch.file("a.png")), events: continuation)
        }
        await #expect(throws: RenderError.interrupted(InterruptionError(leftBehind: .nothing))) { try await task.value }
        #expect(await stream.reduce(0) { count, _ in count + 1 } == 0)
        #expect(scratch.contents == [])
    }

    /// The manifest and every file `render --bundle` writes, byte for byte, with the
    /// bundle's phases in order: each loop's codec and the posters, then the files
    /// measured, then the packing; the share done only rises, to 1.
    @Test func aBundleIsTheCommandsBundleAndReportsItsPhases() async throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "aurora", "--size", "128x72", "--fps", "12", "--duration", "0.5", "--loop",
            "--bundle", scratch.file("cli"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let (summary, events) = try await Self.written(try Self.clip(), to: .bundle(directory: scratch.file("api")))
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.file("cli")).sorted()
        #expect(names.contains("manifest.json") && names.contains("poster.avif"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("api")).sorted() == names)
        for name in names {
            #expect(try Self.bytes(scratch.file("api/" + name)) == Self.bytes(scratch.file("cli/" + name)), "\(name)")
        }
        #expect(summary.loops.map(\.file) == ["loop-av1.mp4", "loop-hevc.mp4", "loop-vp9.webm", "loop-h264.mp4"])
        let progress = events.compactMap { if case .progress(let p) = $0 { p } else { nil } }
        let encoding = progress.filter { $0.phase == .encoding }
        #expect(encoding.last?.steps.map(\.name) == ["AV1", "HEVC", "VP9", "H.264", "posters"])
        #expect(encoding.last?.steps.map(\.done) == [6, 6, 6, 6, 3])
        // Four loops of 6 frames and three one-frame posters, one event each.
        #expect(encoding.count == 27)
        var phases: [RenderProgress.Phase] = []
        for phase in progress.map(\.phase) where phases.last != phase { phases.append(phase) }
        #expect(phases == [.encoding, .measuring, .packing])
        #expect(progress.filter { $0.phase == .measuring }.last?.steps.map(\.done) == [7])
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.fractionCompleted <= $1.fractionCompleted })
        #expect(progress.last?.fractionCompleted == 1)
    }

    @Test func aBundleCancelledMidwayLeavesNothing() async throws {
        let scratch = Scratch()
        let path = scratch.file("web")
        let (stream, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let preset = try Self.clip(transparent: true)
        let task = Task { try await preset.write(to: .bundle(directory: path), events: continuation) }
        for await case .progress(let progress) in stream where progress.steps.map(\.done).reduce(0, +) >= 3 {
            task.cancel()
        }
        await #expect(throws: RenderError.self) { try await task.value }
        if case .failure(let error as RenderError) = await task.result, case .interrupted = error {
        } else {
            Issue.record("not interrupted: \(await task.result)")
        }
        #expect(scratch.contents == [])
    }

    /// A caller's rates reach the bundle as `--crf`'s do: the same files, byte for byte,
    /// and each loop's rate recorded as given, none searched.
    @Test func aBundleTakesTheCallersRatesAsTheCommandDoes() async throws {
        let scratch = Scratch()
        let result = run(
            [
                "render", "--preset", "aurora", "--size", "128x72", "--fps", "12", "--duration", "0.5", "--loop",
                "--bundle", scratch.file("cli"),
            ] + BundleCommandTests.givenRates)
        #expect(result.status == 0, "\(result.stderr)")
        let rates: [Output.BundleCodec: Int] = [.av1: 35, .hevc: 22, .h264: 30, .vp9: 30]
        try await Self.clip().write(to: .bundle(directory: scratch.file("api"), rates: rates))
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.file("cli")).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("api")).sorted() == names)
        for name in names {
            #expect(try Self.bytes(scratch.file("api/" + name)) == Self.bytes(scratch.file("cli/" + name)), "\(name)")
        }
        let manifest = try JSONSerialization.jsonObject(with: Self.bytes(scratch.file("api/manifest.json")))
        let files = try #require((manifest as? [String: Any])?["files"] as? [[String: Any]])
        let chosen = Dictionary(
            uniqueKeysWithValues: files.compactMap { file in
                (file["crf"] as? Int).map { (file["file"] as! String, "\($0) \(file["rateChoice"] as! String)") }
            })
        #expect(
            chosen == [
                "loop-av1.mp4": "35 given", "loop-hevc.mp4": "22 given", "loop-h264.mp4": "30 given",
                "loop-vp9.webm": "30 given",
            ])
    }
}
