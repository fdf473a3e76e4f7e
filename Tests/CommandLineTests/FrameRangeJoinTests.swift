import Foundation
import Testing

/// One render split into pieces with `--frame-range` and joined by ffmpeg's concat demuxer
/// without re-encoding (`Examples/scaling/join-pieces.sh`), as docs/scale-out.md does across
/// machines. ClusterTests runs the same recipe as a Slurm job array; this suite is its road
/// without a scheduler. Pieces of 5, 3 and 4 frames at 60 fps last no whole number of
/// milliseconds, which an .mp4 rounds its length to: the join must still place every frame
/// where the whole render has it.
@Suite struct FrameRangeJoinTests {
    static let clip = ["render", "--preset", "ember", "--size", "64x36", "--frames", "12", "--quiet"]
    static let ranges = ["0-4", "5-7", "8-11"]

    /// Renders each of `ranges` to a piece named as `Examples/scaling/join-pieces.sh` expects,
    /// and joins them with it.
    ///
    /// - Returns: the joined file and the pieces.
    static func join(_ ext: String, _ extra: [String], in scratch: Scratch) throws -> (
        joined: String, pieces: [String]
    ) {
        var pieces: [String] = []
        for (index, range) in ranges.enumerated() {
            let piece = scratch.file("clip.part-\(index)-of-\(ranges.count).\(ext)")
            let result = run(clip + extra + ["--frame-range", range, "-o", piece])
            try #require(result.status == 0, "\(result.stderr)")
            pieces.append(piece)
        }
        let joined = scratch.file("clip." + ext)
        let script = ScalingRecipeTests.repository.appendingPathComponent("Examples/scaling/join-pieces.sh").path
        let result = try ScalingRecipeTests.execute(["bash", script, joined, String(ranges.count)])
        try #require(result.status == 0, "\(result.output)")
        #expect(scratch.contents.filter { $0.hasPrefix(".") }.isEmpty, "the join leaves no temporary file")
        return (joined, pieces)
    }

    /// The presentation timestamps of a video's packets, in order of time.
    static func timestamps(_ path: String) -> [Int] {
        let text = toolOutput([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", path,
        ])
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.sorted()
    }

    /// A video's frames, decoded by ffmpeg to its own pixel format.
    static func decoded(_ path: String, _ pixelFormat: String) -> Data {
        toolOutput(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
    }

    /// ProRes is intra-only, so each piece holds exactly the whole's frames.
    @Test func movPiecesJoinIntoTheWholeRender() throws {
        let scratch = Scratch()
        let whole = scratch.file("whole.mov")
        #expect(run(Self.clip + ["-o", whole]).status == 0)
        let (joined, _) = try Self.join("mov", [], in: scratch)
        let expected = Self.decoded(whole, "yuva444p10le")
        #expect(expected.count == 12 * 64 * 36 * 4 * 2)
        #expect(Self.decoded(joined, "yuva444p10le") == expected)
        #expect(Self.timestamps(joined) == Self.timestamps(whole))
        #expect(probe(joined) == probe(whole))
    }

    /// Lossless H.264 (`-qp 0`) keeps the render's own yuv420p: the joined file decodes to the
    /// frames `-o -` writes in one process, byte for byte.
    @Test func losslessMP4PiecesJoinIntoTheFramesOfOneProcess() throws {
        let scratch = Scratch()
        let (joined, _) = try Self.join("mp4", ["--ffmpeg-options", "-qp 0"], in: scratch)
        let render = run(Self.clip + ["--pixel-format", "yuv420p", "-o", "-"])
        #expect(render.status == 0)
        #expect(render.stdout.count == 12 * 64 * 36 * 3 / 2)
        #expect(Self.decoded(joined, "yuv420p") == render.stdout)
    }

    /// A lossy piece starts with a key frame of its own, so the joined file is the pieces'
    /// frames one after the other, with the whole's frame count, rate and tags.
    @Test(arguments: ["mp4", "webm"]) func lossyPiecesJoinWithoutReencoding(ext: String) throws {
        let scratch = Scratch()
        let whole = scratch.file("whole." + ext)
        #expect(run(Self.clip + ["-o", whole]).status == 0)
        let (joined, pieces) = try Self.join(ext, [], in: scratch)
        let format = ext == "mp4" ? "yuv420p" : "yuv420p10le"
        #expect(Self.decoded(joined, format) == pieces.map { Self.decoded($0, format) }.reduce(Data(), +))
        var facts = probe(joined), wholeFacts = probe(whole)
        #expect(facts["nb_read_frames"] == "12")
        if ext == "webm" {
            // Matroska's timestamps are whole milliseconds, each piece's counted from its own
            // start, so the joined length may be 1 ms off the whole's.
            let milliseconds = [facts, wholeFacts].map { ((Double($0["duration"] ?? "") ?? .nan) * 1000).rounded() }
            #expect(abs(milliseconds[0] - milliseconds[1]) <= 1, "\(milliseconds)")
            (facts["duration"], wholeFacts["duration"]) = (nil, nil)
        } else {
            #expect(Self.timestamps(joined) == Self.timestamps(whole))
        }
        #expect(facts == wholeFacts)
    }
}
