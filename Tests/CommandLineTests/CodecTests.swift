import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `.mp4` with `--codec h264|hevc|av1`, through the real ffmpeg and read back with
/// ffprobe: HEVC and AV1 are 10-bit from our own converter, every file is BT.709 in
/// the bitstream and the container, with its index ahead of its data.
@Suite(.serialized) struct CodecTests {
    /// AV1 (SVT-AV1) takes nothing under 64x64.
    static let clip = ["render", "--preset", "sunset", "--size", "128x72", "--frames", "12", "--fps", "30"]

    static func arguments(_ codec: VideoCodec, extraOptions: [String] = []) -> [String] {
        VideoEncoding(container: .mp4, codec: codec, hasTransparency: false)
            .arguments(width: 128, height: 72, fps: 30, frameCount: 12, extraOptions: extraOptions, output: "o.mp4")
    }

    /// Whether `words` holds `run` as consecutive words.
    static func contains(_ words: [String], _ run: [String]) -> Bool {
        words.indices.contains { Array(words[$0...].prefix(run.count)) == run }
    }

    @Test(arguments: [
        (VideoCodec.h264, "yuv420p", ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p"]),
        (
            .hevc, "yuv420p10le",
            [
                "-c:v", "libx265", "-preset", "fast", "-crf", "22", "-x265-params",
                "log-level=error:info=0:frame-threads=1",
                "-tag:v", "hvc1", "-pix_fmt", "yuv420p10le",
            ]
        ),
        (
            .av1, "yuv420p10le",
            [
                "-c:v", "libsvtav1", "-preset", "8", "-crf", "35", "-svtav1-params", "enable-tf=0", "-pix_fmt",
                "yuv420p10le",
            ]
        ),
    ])
    func eachCodecGetsItsEncoderAndOurTaggedInput(codec: VideoCodec, input: String, encoder: [String]) {
        let words = Self.arguments(codec)
        #expect(Self.contains(words, ["-f", "rawvideo", "-pix_fmt", input, "-s", "128x72", "-r", "30"]), "\(words)")
        let tags = [
            "-color_range", "tv", "-chroma_sample_location", "center", "-color_primaries", "bt709", "-color_trc",
            "iec61966-2-1", "-colorspace", "bt709",
        ]
        // The input is tagged as what our converter made, and the output as what it is.
        let threads = ["-filter_threads", "4", "-filter_complex_threads", "4"]
        #expect(Self.contains(words, tags + threads + ["-i", "pipe:0", "-an", "-threads", "4"]), "\(words)")
        #expect(
            Self.contains(
                words, encoder + tags + ["-movflags", "+faststart", "-f", "mp4", "-fflags", "+bitexact", "o.mp4"]),
            "\(words)")
        // A rate of the user's replaces our constant quality.
        #expect(!Self.arguments(codec, extraOptions: ["-b:v", "300k"]).contains("-crf"))
    }

    /// The codec, its bit depth and tag, the BT.709 matrix, the sRGB transfer and limited range as ffprobe
    /// reads them, and the index (`moov`) ahead of the data (`mdat`).
    @Test(arguments: [
        (VideoCodec.h264, "h264", "yuv420p", "avc1"), (.hevc, "hevc", "yuv420p10le", "hvc1"),
        (.av1, "av1", "yuv420p10le", "av01"),
    ])
    func filesAreTaggedAndFastStarting(codec: VideoCodec, name: String, pixelFormat: String, tag: String) throws {
        let scratch = Scratch()
        let path = scratch.file("c.mp4")
        let result = run(Self.clip + ["--codec", codec.rawValue, "-o", path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let info = probe(path)
        #expect(
            info["codec_name"] == name && info["pix_fmt"] == pixelFormat && info["nb_read_frames"] == "12", "\(info)")
        #expect(
            info["color_space"] == "bt709" && info["color_transfer"] == "iec61966-2-1"
                && info["color_primaries"] == "bt709")
        #expect(info["color_range"] == "tv")
        #expect(probeEntries(path, "stream=codec_tag_string,profile")["codec_tag_string"] == tag)
        if codec == .hevc { #expect(probeEntries(path, "stream=profile")["profile"] == "Main 10") }
        let boxes = try topLevelBoxes(path)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!, "\(boxes)")
        // The container's own colour box: nclx, BT.709 primaries and matrix (1), the sRGB
        // transfer (13), limited range.
        #expect(try containerColour(path) == [1, 13, 1, 0])
    }

    /// The colour description reaches the bitstream itself (x265's VUI, the AV1
    /// sequence header), not only the container: a player that ignores `colr` reads it there.
    @Test(arguments: [VideoCodec.hevc, .av1])
    func theBitstreamCarriesTheColourTags(codec: VideoCodec) {
        let scratch = Scratch()
        let path = scratch.file("c.mp4")
        #expect(run(Self.clip + ["--codec", codec.rawValue, "-o", path]).status == 0)
        let fields = bitstreamFields(path)
        for field in [
            codec == .hevc ? "colour_primaries" : "color_primaries", "transfer_characteristics", "matrix_coefficients",
        ] {
            #expect(fields[field] == (field == "transfer_characteristics" ? 13 : 1), "\(field): \(fields)")
        }
        #expect(fields[codec == .hevc ? "video_full_range_flag" : "color_range"] == 0, "\(fields)")
        if codec == .hevc {
            // 10-bit samples, and our centred chroma (type 1).
            #expect(
                fields["bit_depth_luma_minus8"] == 2 && fields["chroma_sample_loc_type_top_field"] == 1, "\(fields)")
        } else {
            #expect(fields["high_bitdepth"] == 1, "\(fields)")
        }
    }

    /// The same frames give the same bytes, run after run and at any --threads: x265 is
    /// pinned to one frame thread, whose count would otherwise change its output.
    @Test(arguments: VideoCodec.allCases)
    func theSameFramesGiveTheSameBytes(codec: VideoCodec) throws {
        let scratch = Scratch()
        var files: Set<Data> = []
        for (index, threads) in ["1", "3", "3"].enumerated() {
            let path = scratch.file("\(index).mp4")
            #expect(run(Self.clip + ["--codec", codec.rawValue, "--threads", threads, "-o", path]).status == 0)
            files.insert(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files.count == 1)
    }

    /// Decoded, the 10-bit planes are the render's own 10-bit codes within the codec's
    /// loss. Measured over four presets at 128x72 (CRF 22 and 35), the mean error is at
    /// most 3 codes (0.75 of an 8-bit level) in any plane, the largest 23, and no plane
    /// drifts by more than 0.5 codes on average. Bounds of 4, 40 and 2 codes leave room
    /// for encoder versions while still failing on what a mistake does: 8-bit samples
    /// read as 10-bit, full range for limited, Cb and Cr swapped or a frame dropped are
    /// off by tens to hundreds of codes throughout.
    /// Opaque VP9 (.webm) is 10-bit too, held to the same bounds.
    @Test(arguments: [("hevc", "mp4"), ("av1", "mp4"), (nil, "webm")])
    func decodedPlanesMatchTheRender(codec: String?, ext: String) throws {
        let scratch = Scratch()
        let path = scratch.file("c." + ext)
        #expect(run(Self.clip + (codec.map { ["--codec", $0] } ?? []) + ["-o", path]).status == 0)
        let render = run(Self.clip + ["--pixel-format", "yuv420p10le", "-o", "-"])
        let decoded = toolOutput([
            "ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-",
        ])
        #expect(
            decoded.count == render.stdout.count
                && decoded.count == 12 * PixelFormat.yuv420p10le.byteCount(width: 128, height: 72))
        let expected = words(render.stdout)
        let actual = words(decoded)
        let luma = 128 * 72
        let chroma = 64 * 36
        let frame = luma + 2 * chroma
        for (plane, range) in [("Y", 0..<luma), ("Cb", luma..<(luma + chroma)), ("Cr", (luma + chroma)..<frame)] {
            var total = 0
            var signed = 0
            var largest = 0
            var count = 0
            for start in stride(from: 0, to: min(expected.count, actual.count), by: frame) {
                for offset in range {
                    let difference = actual[start + offset] - expected[start + offset]
                    total += abs(difference)
                    signed += difference
                    largest = max(largest, abs(difference))
                    count += 1
                }
            }
            let mean = Double(total) / Double(max(count, 1))
            let drift = Double(signed) / Double(max(count, 1))
            #expect(
                mean <= 4 && largest <= 40 && abs(drift) <= 2,
                "\(plane): mean \(mean), largest \(largest), drift \(drift)")
        }
    }

    /// An AV1 loop's first frame is as close to the engine's as the frames after it. SVT-AV1's
    /// temporal filter, on by default, blends the frames around each key frame into it: here
    /// frame 0 came out at 46.5 dB against a median of 49.2 (54.6 against 49.4 without it).
    /// The control, the filter turned back on, must fail the same check.
    @Test func anAV1LoopsFirstFrameIsNoWorseThanTheRest() throws {
        let scratch = Scratch()
        let loop = ["render", "--preset", "neon", "--size", "320x180", "--fps", "30", "--duration", "1", "--loop"]
        #expect(run(loop + ["--depth", "16", "--dither", "off", "-o", scratch.file("%03d.png")]).status == 0)
        func firstAgainstMedian(_ options: [String]) throws -> (first: Double, median: Double) {
            let video = scratch.file("a.mp4")
            let render = run(loop + ["--codec", "av1", "--encode-size", "full", "-o", video] + options)
            #expect(render.status == 0, "\(render.stderr)")
            let report = run(["compare", scratch.file("%03d.png"), video, "--json"])
            let root = try #require(try JSONSerialization.jsonObject(with: report.stdout) as? [String: Any])
            let psnr = (root["frames"] as! [[String: Any]]).map { $0["psnr"] as! Double }
            #expect(psnr.count == 30)
            return (psnr[0], psnr.dropFirst().sorted()[psnr.count / 2 - 1])
        }
        let plain = try firstAgainstMedian([])
        #expect(plain.first >= plain.median, "frame 0 at \(plain.first) dB, the median \(plain.median) dB")
        let filtered = try firstAgainstMedian(["--ffmpeg-options", "-svtav1-params enable-tf=1"])
        #expect(filtered.first < filtered.median - 1, "control: \(filtered)")
    }

    /// --codec belongs to .mp4: anywhere else it is refused before anything is written,
    /// and so are sizes the encoders would refuse or crop.
    @Test func codecsTheOutputCannotTakeAreRefused() {
        let scratch = Scratch()
        let short = ["render", "--size", "128x72", "--frames", "2"]
        BadInputTests.expectRejected(
            short + ["--codec", "hevc", "-o", scratch.file("c.webm")], scratch: scratch,
            mentions: "--codec hevc: a .webm cannot hold HEVC; --codec chooses the codec of an .mp4 (h264, hevc or av1)"
        )
        BadInputTests.expectRejected(
            short + ["--codec", "av1", "-o", scratch.file("c.webm")], scratch: scratch,
            mentions: "--codec av1: \(scratch.file("c.webm")) is always VP9; --codec chooses the codec of an .mp4")
        BadInputTests.expectRejected(
            short + ["--codec", "h264", "-o", scratch.file("c.gif")], scratch: scratch,
            mentions: "a .gif cannot hold H.264")
        BadInputTests.expectRejected(
            short + ["--codec", "hevc", "-o", scratch.file("c.mov")], scratch: scratch,
            mentions: "is always ProRes 4444")
        BadInputTests.expectRejected(
            short + ["--codec", "av1", "-o", scratch.file("c.png")], scratch: scratch,
            mentions: "PNG and raw output have none")
        BadInputTests.expectRejected(
            short + ["--codec", "vp9", "-o", scratch.file("c.mp4")], scratch: scratch, mentions: "vp9")
        BadInputTests.expectRejected(
            ["render", "--size", "96x54", "--frames", "2", "--codec", "av1", "-o", scratch.file("c.mp4")],
            scratch: scratch,
            mentions: "AV1 needs a frame of at least 64x64, but the size is 96x54")
        BadInputTests.expectRejected(
            ["render", "--size", "48x48", "--frames", "2", "--codec", "hevc", "-o", scratch.file("c.mp4")],
            scratch: scratch,
            mentions: "HEVC needs a frame of at least 64x16")
        BadInputTests.expectRejected(
            ["render", "--size", "129x72", "--frames", "2", "--codec", "hevc", "-o", scratch.file("c.mp4")],
            scratch: scratch,
            mentions: "HEVC with 4:2:0 chroma needs an even width and height")
    }
}

/// 16-bit little-endian words as integers.
func words(_ data: Data) -> [Int] {
    data.withUnsafeBytes { bytes in
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
    }
}

/// `key=value` pairs ffprobe prints for `entries` of the first video stream.
func probeEntries(_ path: String, _ entries: String) -> [String: String] {
    let text = String(
        decoding: toolOutput([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", entries, "-of", "default=nw=1", path,
        ]), as: UTF8.self)
    var values: [String: String] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
}

/// The types of a file's top-level ISO boxes, in order.
func topLevelBoxes(_ path: String) throws -> [String] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var types: [String] = []
    var offset = 0
    while offset + 8 <= bytes.count {
        var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        if size == 1 { size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) } }
        types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
        guard size >= 8 else { break }
        offset += size
    }
    return types
}

/// The first `colr` box of type `nclx`: primaries, transfer, matrix and the full-range bit.
func containerColour(_ path: String) throws -> [Int] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let marker = Array("colrnclx".utf8)
    guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }), start + 15 <= bytes.count
    else { return [] }
    let fields = start + 8
    func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    return [u16(fields), u16(fields + 2), u16(fields + 4), Int(bytes[fields + 6] >> 7)]
}

/// The first value of each syntax element ffmpeg's trace_headers prints for the stream's headers.
func bitstreamFields(_ path: String) -> [String: Int] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "ffmpeg", "-hide_banner", "-i", path, "-c", "copy", "-bsf:v", "trace_headers", "-frames:v", "1", "-f", "null",
        "-",
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try? process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var fields: [String: Int] = [:]
    // "[trace_headers @ 0x…] 221   colour_primaries   00000001 = 1"
    for line in text.split(separator: "\n") where line.contains("trace_headers") {
        let words = line.split(separator: " ")
        guard words.count >= 4, words[words.count - 2] == "=", let value = Int(words[words.count - 1]) else { continue }
        let name = String(words[words.count - 4])
        if fields[name] == nil { fields[name] = value }
    }
    return fields
}
