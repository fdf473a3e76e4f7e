import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// What a render service's job needs of `writeVideo` and `writeBundle`: the command's
/// encode sizes and bytes, progress it can show, and a stop that leaves nothing behind.
@Suite struct VideoJobTests {
    /// The (done, total) pairs a progress callback heard, from whichever threads.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var pairs: [(done: Int, total: Int)] = []

        func record(_ done: Int, _ total: Int) { lock.withLock { pairs.append((done, total)) } }
        var all: [(done: Int, total: Int)] { lock.withLock { pairs } }
        var count: Int { lock.withLock { pairs.count } }
    }

    /// A short clip: 6 frames at 128x72, large enough for every encoder.
    static func clip(transparent: Bool = false) throws -> Preset {
        var preset = try #require(Preset.builtIn("aurora"))
        (preset.width, preset.height, preset.fps, preset.duration, preset.loop) = (128, 72, 12, 0.5, true)
        if transparent { preset.background = .color(.clear) }
        return preset
    }

    /// The same frames, the same size choice, the same bytes as `render -o`.
    @Test(arguments: [(EncodeSizeRequest.auto, "auto"), (.full, "full")])
    func anEncodeSizeGivesTheCommandsFile(encodeSize: EncodeSizeRequest, flag: String) throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "aurora", "--size", "640x360", "--fps", "12", "--duration", "0.5",
            "--encode-size", flag, "-o", scratch.file("cli.mp4"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var preset = try #require(Preset.builtIn("aurora"))
        (preset.fps, preset.duration) = (12, 0.5)
        let url = URL(fileURLWithPath: scratch.file("api.mp4"))
        try preset.writeVideo(to: url, width: 640, height: 360, encodeSize: encodeSize)
        #expect(try Data(contentsOf: url) == Data(contentsOf: URL(fileURLWithPath: scratch.file("cli.mp4"))))
        let width = probe(scratch.file("api.mp4"), countFrames: false)["width"]
        #expect(encodeSize == .full ? width == "640" : width != "640", "\(width ?? "none")")
    }

    @Test(arguments: ["mp4", "webm", "mov", "gif", "webp", "apng", "avif"])
    func progressCountsEveryFrameInOrder(container: String) throws {
        let scratch = Scratch()
        let preset = try Self.clip(transparent: container == "mov")
        let heard = Heard()
        let url = URL(fileURLWithPath: scratch.file("clip." + container))
        try preset.writeVideo(to: url, progress: { heard.record($0, $1) })
        #expect(heard.all.map(\.done) == Array(1...preset.frameCount))
        #expect(heard.all.allSatisfy { $0.total == preset.frameCount })
        #expect(scratch.contents == ["clip." + container])
    }

    @Test(arguments: ["mp4", "webm", "mov", "gif", "webp", "apng", "avif"])
    func aStopMidwayThrowsAndLeavesNothing(container: String) throws {
        let scratch = Scratch()
        let heard = Heard()
        let url = URL(fileURLWithPath: scratch.file("clip." + container))
        #expect(throws: VideoError.stopped(path: url.path)) {
            try Self.clip().writeVideo(to: url, progress: { heard.record($0, $1) }, shouldStop: { heard.count >= 2 })
        }
        #expect(heard.count >= 2 && heard.count < 6)
        #expect(scratch.contents == [])
    }

    /// The manifest and every file `render --bundle` writes, byte for byte, with
    /// progress over every encode.
    @Test func aBundleIsTheCommandsBundle() throws {
        let scratch = Scratch()
        let result = run([
            "render", "--preset", "aurora", "--size", "128x72", "--fps", "12", "--duration", "0.5", "--loop",
            "--bundle", scratch.file("cli"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let heard = Heard()
        let preset = try Self.clip()
        try preset.writeBundle(to: URL(fileURLWithPath: scratch.file("api")), progress: { heard.record($0, $1) })
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.file("cli")).sorted()
        #expect(names.contains("manifest.json") && names.contains("poster.avif"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("api")).sorted() == names)
        for name in names {
            let cli = try Data(contentsOf: URL(fileURLWithPath: scratch.file("cli/" + name)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("api/" + name))) == cli, "\(name)")
        }
        // Four loops of 6 frames and three one-frame posters.
        #expect(heard.all.map(\.done) == Array(1...27) && heard.all.allSatisfy { $0.total == 27 })
    }

    @Test func aBundleStoppedMidwayLeavesNothing() throws {
        let scratch = Scratch()
        let heard = Heard()
        let url = URL(fileURLWithPath: scratch.file("web"))
        #expect(throws: VideoError.stopped(path: url.path)) {
            try Self.clip(transparent: true).writeBundle(
                to: url, progress: { heard.record($0, $1) }, shouldStop: { heard.count >= 3 })
        }
        #expect(scratch.contents == [])
    }

    /// One encode at a time: the same files, and never two ffmpeg encoders alive at once
    /// (counted among this process's children whenever a frame is handed over; only those
    /// writing into this test's scratch directory: other tests run their own at the same time).
    @Test func aBundleEncodedOneAtATimeIsTheSameBundle() throws {
        let scratch = Scratch()
        let preset = try Self.clip()
        try preset.writeBundle(to: URL(fileURLWithPath: scratch.file("together")))
        let encoders = Heard()
        try preset.writeBundle(
            to: URL(fileURLWithPath: scratch.file("apart")), encodesAtOnce: 1,
            progress: { _, _ in encoders.record(Self.childEncoders(writingInto: scratch.path + "/"), 0) })
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.file("together")).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("apart")).sorted() == names)
        for name in names {
            let together = try Data(contentsOf: URL(fileURLWithPath: scratch.file("together/" + name)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("apart/" + name))) == together, "\(name)")
        }
        #expect(encoders.count == 27)
        #expect(encoders.all.map(\.done).max() == 1, "\(encoders.all.map(\.done))")
    }

    /// How many of this process's children are ffmpeg with `directory` in their arguments,
    /// from /proc.
    static func childEncoders(writingInto directory: String) -> Int {
        let me = String(getpid())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.count { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard stat.contains("(ffmpeg)") && fields.count > 1 && fields[1] == me,
                let arguments = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            return String(decoding: arguments, as: UTF8.self).contains(directory)
        }
    }
}
