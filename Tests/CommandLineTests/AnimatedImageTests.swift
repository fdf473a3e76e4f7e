import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Animated `.webp`, `.apng` and `.avif` through the real ffmpeg: each loops forever,
/// keeps alpha where the frame has it, and decodes to the render's frames within its
/// codec's loss.
@Suite(.serialized) struct AnimatedImageTests {
    /// AV1 (SVT-AV1) takes nothing under 64x64; 12 frames at 30 fps last 400 ms.
    static func clip(_ preset: String, transparent: Bool) -> [String] {
        ["render", "--preset", preset, "--size", "128x72", "--frames", "12", "--fps", "30"]
            + (transparent ? ["--background", "transparent"] : [])
    }

    static func arguments(_ container: VideoContainer, transparent: Bool) -> [String] {
        VideoEncoding(container: container, hasTransparency: transparent)
            .arguments(width: 128, height: 72, fps: 30, frameCount: 12, extraOptions: [], output: "o")
    }

    @Test func eachImageGetsItsEncoderAndLoopsForever() {
        let webp = Self.arguments(.webp, transparent: false)
        #expect(CodecTests.contains(webp, ["-pix_fmt", "rgba"]))
        #expect(
            CodecTests.contains(
                webp, ["-c:v", "libwebp", "-lossless", "0", "-quality", "90", "-loop", "0", "-f", "webp"]))
        for transparent in [false, true] {
            let apng = Self.arguments(.apng, transparent: transparent)
            #expect(CodecTests.contains(apng, ["-pix_fmt", transparent ? "rgba" : "rgb24"]))
            #expect(CodecTests.contains(apng, ["-c:v", "apng", "-pred", "mixed", "-plays", "0", "-f", "apng"]))
        }
        let avif = Self.arguments(.avif, transparent: false)
        #expect(
            CodecTests.contains(avif, ["-pix_fmt", "yuv420p10le", "-s", "128x72", "-r", "30", "-color_range", "tv"]))
        #expect(
            CodecTests.contains(
                avif,
                [
                    "-c:v", "libsvtav1", "-preset", "8", "-crf", "35", "-svtav1-params", "enable-tf=0", "-pix_fmt",
                    "yuv420p10le", "-color_range", "tv",
                    "-color_primaries", "bt709", "-color_trc", "iec61966-2-1", "-colorspace", "bt709", "-f", "avif",
                ]))
        let alpha = Self.arguments(.avif, transparent: true)
        #expect(CodecTests.contains(alpha, ["-pix_fmt", "rgba64le"]))
        #expect(
            CodecTests.contains(
                alpha,
                [
                    "-map", "[color]", "-map", "[alpha]", "-c:v:0", "libsvtav1", "-preset:v:0", "8", "-crf:v:0", "35",
                    "-svtav1-params:v:0", "enable-tf=0",
                    "-color_range:v:0", "tv", "-color_primaries:v:0", "bt709", "-color_trc:v:0", "iec61966-2-1",
                    "-colorspace:v:0", "bt709", "-c:v:1", "libaom-av1", "-cpu-used:v:1", "6", "-crf:v:1", "30",
                    "-threads:v:1", "2", "-color_range:v:1", "pc", "-f", "avif",
                ]))
    }

    /// A WebP loops forever (ANIM loop count 0), holds every frame whole and replacing the
    /// canvas, lasts its frames' duration to the millisecond, and decodes to the render's
    /// 8-bit frames within lossy WebP's loss. Measured over four presets at 128x72, quality
    /// 90: the premultiplied colour is at most 8 levels off, 1.05 on average, no channel
    /// drifting by more than 0.3; alpha (lossless) is exact. Bounds of 16, 2 and 1 fail on a
    /// BT.709/BT.601 mix-up (about 10 levels), swapped channels or frames that blend.
    @Test(arguments: [("aurora", false), ("neon", true)])
    func webpLoopsForeverAndMatchesTheRender(preset: String, transparent: Bool) throws {
        let scratch = Scratch()
        let path = scratch.file("a.webp")
        let result = run(Self.clip(preset, transparent: transparent) + ["-o", path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let file = try WebPFile(path)
        #expect(file.canvas == (128, 72) && file.loopCount == 0 && file.hasAlphaFlag)
        #expect(
            file.frames.count == 12 && file.frames.map(\.duration).reduce(0, +) == 400, "\(file.frames.map(\.duration))"
        )
        #expect(file.frames.allSatisfy { $0.coversCanvas && $0.replacesCanvas })
        #expect(file.frames.allSatisfy { $0.hasAlpha == transparent })
        let decoded = try file.decodedFrames(scratch: scratch)
        let render = run(Self.clip(preset, transparent: transparent) + ["--pixel-format", "rgba", "-o", "-"]).stdout
        #expect(decoded.count == render.count)
        let error = premultipliedError([UInt8](decoded), [UInt8](render))
        #expect(
            error.largest <= 16 && error.mean <= 2 && error.drift <= 1 && error.alpha == 0,
            "\(String(describing: error))")
    }

    /// An APNG plays forever (acTL num_plays 0) and is lossless: it decodes to the
    /// render's own 8-bit frames exactly, RGB or, with transparency, RGBA.
    @Test(arguments: [false, true])
    func apngLoopsForeverAndIsExact(transparent: Bool) throws {
        let scratch = Scratch()
        let path = scratch.file("a.apng")
        #expect(run(Self.clip("sunset", transparent: transparent) + ["-o", path]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let control = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("acTL".utf8)) })
        #expect(ISOBoxes.readInteger(bytes, at: control + 4, width: 4) == 12, "frames")
        #expect(ISOBoxes.readInteger(bytes, at: control + 8, width: 4) == 0, "plays")
        let format = transparent ? "rgba" : "rgb24"
        #expect(probe(path)["pix_fmt"] == format)
        let decoded = toolOutput(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", format, "-"])
        let render = run(Self.clip("sunset", transparent: transparent) + ["--pixel-format", format, "-o", "-"]).stdout
        #expect(!decoded.isEmpty && decoded == render)
    }

    /// An AVIF image sequence loops forever: every track has a repeating edit list of the
    /// whole track and an indefinite duration, and its chunk offsets still find every
    /// frame. The colour is tagged BT.709, limited range, in the container.
    @Test(arguments: [false, true])
    func avifLoopsForeverWithAnAlphaTrackWhereNeeded(transparent: Bool) throws {
        let scratch = Scratch()
        let path = scratch.file("a.avif")
        let result = run(Self.clip("ocean", transparent: transparent) + ["-o", path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let top = try #require(ISOBoxes.topLevel(bytes))
        #expect(top.map(\.type) == ["ftyp", "meta", "moov", "mdat"])
        #expect(String(decoding: bytes[8..<12], as: UTF8.self) == "avis")
        let tracks = try #require(ISOBoxes.children(of: bytes, inside: top[2])).filter { $0.type == "trak" }
        #expect(tracks.count == (transparent ? 2 : 1))
        for track in tracks {
            let boxes = try #require(ISOBoxes.children(of: bytes, inside: track))
            let header = try #require(boxes.first { $0.type == "tkhd" })
            #expect(ISOBoxes.readInteger(bytes, at: header.contentStart + 20, width: 4) == 0xFFFF_FFFF)
            let edits = try #require(boxes.first { $0.type == "edts" })
            // elst, version 0, flags 1 (repeat), one entry: 0.4 s in the movie's 15360 a second.
            #expect(
                Array(bytes[(edits.contentStart + 8)..<(edits.contentStart + 20)]) == [
                    0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0x18, 0,
                ])
        }
        #expect(try containerColour(path) == [1, 13, 1, 0])
        let streams = String(
            decoding: toolOutput([
                "ffprobe", "-v", "error", "-count_frames", "-show_entries",
                "stream=codec_name,pix_fmt,nb_read_frames,color_range", "-of", "csv=p=0", path,
            ]), as: UTF8.self)
        #expect(streams == "av1,yuv420p10le,tv,12\n" + (transparent ? "av1,gray10le,pc,12\n" : ""), "\(streams)")
    }

    /// An opaque AVIF decodes to the render's own 10-bit codes within AV1's loss (the
    /// bounds and reasons of CodecTests.decodedPlanesMatchTheRender). A transparent one's
    /// alpha track and colour (premultiplied by the render's alpha, so that the colour
    /// under near-zero alpha does not count) match the 16-bit render: measured over three
    /// presets at 128x72, alpha is at most 6.3 levels off (mean 0.47, drift 0.24), colour
    /// 7.2 (mean 0.8); bounds of 12, 1 and 1 for alpha and 16 and 1.5 for colour still
    /// fail on an alpha track read as limited range (16 levels at the ends) or a colour
    /// mix-up.
    @Test(arguments: [false, true])
    func avifDecodesToTheRender(transparent: Bool) throws {
        let scratch = Scratch()
        let path = scratch.file("a.avif")
        #expect(run(Self.clip("aurora", transparent: transparent) + ["-o", path]).status == 0)
        guard transparent else {
            let render = run(Self.clip("aurora", transparent: false) + ["--pixel-format", "yuv420p10le", "-o", "-"])
                .stdout
            let decoded = toolOutput([
                "ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-",
            ])
            #expect(decoded.count == render.count)
            let differences = zip(words(decoded), words(render)).map { $0 - $1 }
            let mean = Double(differences.map(abs).reduce(0, +)) / Double(differences.count)
            #expect(mean <= 4 && differences.map(abs).max()! <= 40, "mean \(mean) codes")
            return
        }
        let render = words(
            run(Self.clip("aurora", transparent: true) + ["--pixel-format", "rgba64le", "-o", "-"]).stdout)
        let alpha = words(
            toolOutput([
                "ffmpeg", "-v", "error", "-i", path, "-map", "0:1", "-f", "rawvideo", "-pix_fmt", "gray16le", "-",
            ]))
        let planes = words(
            toolOutput([
                "ffmpeg", "-v", "error", "-i", path, "-map", "0:0", "-vf",
                "zscale=matrixin=709:rangein=limited:chromalin=center:transferin=709:primariesin=709"
                    + ":transfer=709:primaries=709,format=gbrp16le",
                "-f", "rawvideo", "-",
            ]))
        let pixels = 128 * 72
        #expect(alpha.count == 12 * pixels && planes.count == 3 * alpha.count && render.count == 4 * alpha.count)
        var alphaError = Statistics()
        var colourError = Statistics()
        for index in 0..<min(alpha.count, planes.count / 3, render.count / 4) {
            let (frame, pixel) = index.quotientAndRemainder(dividingBy: pixels)
            let expectedAlpha = Double(render[4 * index + 3]) / 65535
            alphaError.add(255 * (Double(alpha[index]) / 65535 - expectedAlpha))
            // gbrp: the G, B and R planes of each frame.
            for (channel, plane) in [(0, 2), (1, 0), (2, 1)] {
                let decoded = Double(planes[(3 * frame + plane) * pixels + pixel]) / 65535
                colourError.add(255 * expectedAlpha * (decoded - Double(render[4 * index + channel]) / 65535))
            }
        }
        #expect(alphaError.largest <= 12 && alphaError.mean <= 1 && abs(alphaError.drift) <= 1, "alpha \(alphaError)")
        #expect(colourError.largest <= 16 && colourError.mean <= 1.5, "colour \(colourError)")
    }

    /// The same frames give the same bytes, run after run and at any --threads.
    @Test(arguments: [("webp", false), ("apng", true), ("avif", false), ("avif", true)])
    func theSameFramesGiveTheSameBytes(ext: String, transparent: Bool) throws {
        let scratch = Scratch()
        var files: Set<Data> = []
        for (index, threads) in ["1", "3", "3"].enumerated() {
            let path = scratch.file("\(index).\(ext)")
            #expect(
                run(Self.clip("citrus", transparent: transparent) + ["--threads", threads, "-o", path]).status == 0)
            files.insert(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files.count == 1)
    }

    /// --codec is .mp4's; an AVIF is AV1 under SVT-AV1's size rules, and a WebP has 16383
    /// pixels a side at most: all refused before anything is written.
    @Test func whatTheImagesCannotTakeIsRefused() {
        let scratch = Scratch()
        let short = ["render", "--size", "128x72", "--frames", "2"]
        BadInputTests.expectRejected(
            short + ["--codec", "av1", "-o", scratch.file("a.avif")], scratch: scratch, mentions: "a.avif is always AV1"
        )
        BadInputTests.expectRejected(
            short + ["--codec", "hevc", "-o", scratch.file("a.avif")], scratch: scratch,
            mentions: "a .avif cannot hold HEVC")
        BadInputTests.expectRejected(
            short + ["--codec", "h264", "-o", scratch.file("a.webp")], scratch: scratch,
            mentions: "a .webp cannot hold H.264")
        BadInputTests.expectRejected(
            short + ["--codec", "h264", "-o", scratch.file("a.apng")], scratch: scratch,
            mentions: "a .apng cannot hold H.264")
        BadInputTests.expectRejected(
            ["render", "--size", "96x54", "--frames", "2", "-o", scratch.file("a.avif")], scratch: scratch,
            mentions: "AV1 needs a frame of at least 64x64")
        BadInputTests.expectRejected(
            ["render", "--size", "129x72", "--frames", "2", "-o", scratch.file("a.avif")], scratch: scratch,
            mentions: "AV1 with 4:2:0 chroma needs an even width and height")
        BadInputTests.expectRejected(
            ["render", "--size", "16384x4", "--frames", "2", "-o", scratch.file("a.webp")], scratch: scratch,
            mentions: "a WebP is at most 16383 pixels a side")
        BadInputTests.expectRejected(
            short + ["--background", "transparent", "-o", scratch.file("a.avif"), "--ffmpeg-options", "-vf null"],
            scratch: scratch,
            mentions: "would replace or clash with the filter that converts a .avif's colours")
    }
}

/// Largest, mean and mean signed value of a set of differences.
struct Statistics: CustomStringConvertible {
    private var total = 0.0, signed = 0.0, count = 0.0
    private(set) var largest = 0.0

    mutating func add(_ difference: Double) {
        total += abs(difference)
        signed += difference
        count += 1
        largest = max(largest, abs(difference))
    }

    var mean: Double { total / max(count, 1) }
    var drift: Double { signed / max(count, 1) }
    var description: String { String(format: "largest %.2f, mean %.3f, drift %.3f", largest, mean, drift) }
}

/// Premultiplied colour differences of two 8-bit RGBA frame runs: largest, mean, the largest
/// mean signed drift of a channel, and the largest alpha difference.
func premultipliedError(
    _ actual: [UInt8], _ expected: [UInt8]
) -> (largest: Double, mean: Double, drift: Double, alpha: Int) {
    var channels = [Statistics(), Statistics(), Statistics()]
    var alpha = 0
    for pixel in stride(from: 0, to: min(actual.count, expected.count) - 3, by: 4) {
        let a = Double(actual[pixel + 3]) / 255
        let e = Double(expected[pixel + 3]) / 255
        for channel in 0..<3 {
            channels[channel].add(Double(actual[pixel + channel]) * a - Double(expected[pixel + channel]) * e)
        }
        alpha = max(alpha, abs(Int(actual[pixel + 3]) - Int(expected[pixel + 3])))
    }
    return (
        channels.map(\.largest).max()!, channels.map(\.mean).reduce(0, +) / 3, channels.map { abs($0.drift) }.max()!,
        alpha
    )
}
