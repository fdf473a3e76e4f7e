import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// The library's front door against the command: the same preset, instant and size give
/// the same bytes, and a preset built in code is checked before it is rendered.
@Suite struct LibraryFrontDoorTests {
    /// The command's still at 2 s, whose dither is that of frame round(2 × fps) = 120.
    @Test func aFrameIsTheCommandsPNGByteForByte() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "aurora", "--time", "2", "--size", "1280x720", "-o", scratch.file("cli.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let preset = try Preset(builtIn: "aurora")
        let png = try preset.frame(at: 2.0, width: 1280, height: 720).pngData()
        #expect(png == (try Data(contentsOf: URL(fileURLWithPath: scratch.file("cli.png")))))
    }

    /// An instant between frames, at 16 bits and with a transparent background (an RGBA PNG).
    @Test func aSixteenBitTransparentFrameIsTheCommandsPNG() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "ocean", "--background", "transparent", "--time", "0.7183", "--size", "320x180",
            "--depth", "16", "-o", scratch.file("cli.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var preset = try Preset(builtIn: "ocean")
        preset.background = .color(.clear)
        let frame = try preset.frame(at: 0.7183, width: 320, height: 180, depth: .sixteen)
        #expect(frame.hasTransparency && frame.depth == .sixteen && frame.bytes.count == 320 * 180 * 8)
        #expect(try frame.pngData() == (try Data(contentsOf: URL(fileURLWithPath: scratch.file("cli.png")))))
    }

    @Test func aSequenceIsTheCommandsFrameRange() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "sunset", "--frames", "30", "--frame-range", "7-9", "--size", "160x90",
            "-o", scratch.file("%02d.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var preset = try Preset(builtIn: "sunset")
        preset.duration = 30 / preset.fps
        let frames = Array(try preset.frames(in: 7..<10, width: 160, height: 90))
        #expect(frames.map(\.time) == [7, 8, 9].map { Double($0) / preset.fps })
        for (index, frame) in zip(7..., frames) {
            let file = try Data(contentsOf: URL(fileURLWithPath: scratch.file(String(format: "%02d.png", index))))
            #expect(try frame.pngData() == file, "frame \(index)")
        }
    }

    @Test func aPresetFileReadsAsTheBuiltInItCopies() throws {
        let scratch = Scratch()
        let bytes = try #require(PresetLibrary.builtInBytes("neon"))
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.file("neon.json")))
        var read = try Preset(contentsOf: URL(fileURLWithPath: scratch.file("neon.json")))
        read.name = "neon"
        #expect(read == (try Preset(builtIn: "neon")))
        #expect(Preset.builtInNames == PresetLibrary.names)
        #expect(throws: UnknownPresetError(name: "no such preset", among: PresetLibrary.names)) {
            try Preset(builtIn: "no such preset")
        }
    }

    /// Built in code and out of bounds: each throws the file's error for the key instead
    /// of rendering (or trapping).
    @Test(arguments: ["colors", "speed", "blur", "blobSize.max", "size"])
    func aPresetOutOfBoundsThrowsNamingTheKey(key: String) {
        var preset = Preset(colors: [.white, RGBA(red: 0.2, green: 0.4, blue: 0.9)])
        switch key {
        case "colors": preset.colors = []
        case "speed": preset.speed = -1
        case "blur": preset.blur = .nan
        case "blobSize.max": preset.ranges.size = ParameterRange(0.1, 40)
        default: preset.width = 0
        }
        #expect(throws: PresetError.self) { _ = try preset.frame(at: 0) }
        do {
            _ = try preset.frames()
            Issue.record("rendered a preset with \(key) out of bounds")
        } catch let error as PresetError {
            #expect(PresetError.text(of: error.path) == key)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aSizeOrInstantOutOfBoundsThrows() {
        let preset = Preset(colors: [.white])
        for (width, height) in [(0, 90), (160, -1), (16_385, 16), (8193, 8192)] {
            #expect(throws: PresetError.self) { _ = try preset.frame(at: 0, width: width, height: height) }
        }
        for time in [-0.001, .nan, .infinity, 86_400.5] {
            #expect(throws: PresetError.self) { _ = try preset.frame(at: time, width: 16, height: 9) }
        }
        #expect(throws: PresetError.self) { _ = try preset.frames(in: 0..<(86_401 * 60), width: 16, height: 9) }
    }

    /// The library's page shows the example package's program as it is.
    @Test func theLibraryPageShowsTheExampleAsItIs() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = try String(
            contentsOf: repository.appendingPathComponent("Examples/RenderPNG/Sources/RenderPNG/main.swift"),
            encoding: .utf8)
        let page = try String(contentsOf: repository.appendingPathComponent("docs/library.md"), encoding: .utf8)
        #expect(page.contains("```swift\n" + example + "```\n"))
    }

    @Test func aVideoHoldsEveryFrameAndAWrongNameIsRefused() async throws {
        let scratch = Scratch()
        var preset = try Preset(builtIn: "aurora")
        preset.duration = 0.25
        try await preset.write(
            to: Output(path: scratch.file("clip.mp4")), width: 160, height: 90, encodeSize: .full)
        let facts = probe(scratch.file("clip.mp4"))
        #expect(facts["width"] == "160" && facts["height"] == "90" && facts["nb_read_frames"] == "15")
        #expect(throws: OutputError.unknownKind(path: scratch.file("clip.txt"))) {
            try Output(path: scratch.file("clip.txt"))
        }
        #expect(scratch.contents == ["clip.mp4"])
    }
}
