import FluidGradientIO
import Foundation
import Testing

/// The same bytes on any machine: every output path encodes with the same threads
/// whatever the cores it may use. Each case runs under `taskset` on 1 core and on 2; before
/// the threads were fixed, x264 (`render -o x.mp4`), VP9 and a transparent AVIF gave
/// other bytes on 1 core.
/// Whether `taskset` can give a process cores 0 and 1, two of them.
private let canPinTwoCores: Bool = {
    guard ProcessInfo.processInfo.activeProcessorCount >= 2,
        FileManager.default.isExecutableFile(atPath: CoreCountTests.taskset)
    else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CoreCountTests.taskset)
    process.arguments = ["-c", "0,1", "/bin/true"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite(.serialized) struct CoreCountTests {
    static let taskset = "/usr/bin/taskset"

    /// Runs `arguments` on cores `cores` (`0` or `0,1`).
    private static func pinned(_ cores: String, _ arguments: [String]) -> CommandResult {
        run(arguments + ["--quiet"], launcher: [taskset, "-c", cores], timeout: 300)
    }

    static let small = ["render", "--size", "256x144", "--fps", "30", "--duration", "0.4", "--loop"]

    /// Every container and codec `render -o` writes, opaque and transparent.
    static let outputs: [(name: String, options: [String])] =
        ["mp4", "webm", "mov", "gif", "webp", "apng", "avif"].map { ("opaque.\($0)", []) }
        + [("hevc.mp4", ["--codec", "hevc"]), ("av1.mp4", ["--codec", "av1"])]
        + ["webm", "mov", "avif"].map { ("transparent.\($0)", ["--background", "transparent"]) }
        + [("stacked.mp4", ["--background", "transparent", "--alpha", "stacked"])]

    @Test(.enabled(if: canPinTwoCores), arguments: outputs.map(\.name))
    func renderGivesTheSameBytesOnOneCoreAndTwo(_ name: String) throws {
        let options = Self.outputs.first { $0.name == name }!.options
        let scratch = Scratch()
        var bytes: [Data] = []
        for cores in ["0", "0,1"] {
            let path = scratch.file("\(cores)-\(name)")
            let result = Self.pinned(cores, Self.small + options + ["-o", path])
            #expect(result.status == 0, "\(result.stderr)")
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(bytes[0] == bytes[1], "\(name): \(bytes[0].count) bytes on 1 core, \(bytes[1].count) on 2")
    }

    /// The library and the studio encode through the same arguments as `render`.
    @Test(arguments: VideoContainer.allCases, [false, true])
    func everyEncodingFixesItsThreads(_ container: VideoContainer, transparent: Bool) {
        let words = VideoEncoding(container: container, hasTransparency: transparent)
            .arguments(width: 64, height: 64, fps: 30, frameCount: 2, extraOptions: ["-threads", "9"], output: "o")
        let input = words.firstIndex(of: "-i")!
        #expect(Array(words[input...].prefix(5)) == ["-i", "pipe:0", "-an", "-threads", "4"])
        #expect(CodecTests.contains(words, ["-filter_threads", "4", "-filter_complex_threads", "4", "-i"]))
        // The user's own count comes last, and ffmpeg takes the last.
        #expect(words.suffix(3) == ["-threads", "9", "o"])
    }

    @Test(.enabled(if: canPinTwoCores)) func aBatchAndABundleGiveTheSameBytesOnOneCoreAndTwo() throws {
        let scratch = Scratch()
        let manifest = """
            {
              "output": "{name}-{size}.{ext}",
              "defaults": { "fps": 30, "duration": 0.4, "loop": true },
              "palettes": [{ "preset": "aurora" }],
              "sizes": ["256x144"],
              "formats": ["mp4", "webm", "bundle"]
            }
            """
        var outputs: [[String: Data]] = []
        for cores in ["0", "0,1"] {
            let directory = scratch.file(cores)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: directory + "/batch.json", contents: Data(manifest.utf8))
            let result = Self.pinned(cores, ["batch", directory + "/batch.json"])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(BatchCommandTests.files(in: directory))
        }
        #expect(outputs[0].keys.sorted() == outputs[1].keys.sorted())
        #expect(outputs[0].keys.contains("aurora-256x144.bundle/loop-h264.mp4"), "\(outputs[0].keys.sorted())")
        for name in outputs[0].keys.sorted() {
            #expect(outputs[0][name] == outputs[1][name], "\(name) differs between 1 core and 2")
        }
    }
}
