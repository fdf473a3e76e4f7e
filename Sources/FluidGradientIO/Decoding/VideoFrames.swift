import FluidGradient
import Foundation

/// Frames decoded from a video by the ffmpeg binary, one at a time, as RGBA: 8-bit from
/// 8-bit RGB and palette streams (GIF, APNG), which swscale widens to 16 bits inexactly
/// (by a level or so), and 16-bit from every other stream. Frames in the stacked-alpha
/// layout are recombined into RGBA.
final class VideoFrames: DecodedFrames {
    /// Of the stream's frames, as stored.
    let width: Int
    let height: Int
    /// Of the samples ffmpeg is asked for: 8 or 16.
    let bitDepth: Int
    /// Whether the frames are in the stacked-alpha layout, and come out as tall as one
    /// half's content.
    let isStacked: Bool
    /// The rows of each stacked half's content: the tag's, else half the frame's.
    private let stackedHeight: Int
    /// For BT.709 4:2:0 at 8 or 10 bits (H.264, HEVC, AV1, VP9), the pixel format the codes
    /// are read in, to be converted exactly (``FrameSamples/init(yuv420p10:width:height:)``):
    /// swscale reads them into 16-bit RGB half a level dark. Nil for other streams.
    let yuvCodes: PixelFormat?
    /// The space the stream's primaries tag names: Display P3 for SMPTE EG 432-1, sRGB
    /// for anything else (BT.709's primaries, or none).
    let colorSpace: ColorSpace
    /// The stream's Y′CbCr matrix, from its tag: BT.601 where it says so (`smpte170m`,
    /// `bt470bg`), else BT.709, as ours are tagged.
    let matrix: YUVMatrix
    private let process: ChildProcess
    private let path: String
    private var index = 0
    /// Where ``skip()`` reads the frames it drops: one frame as ffmpeg sends it.
    private lazy var skipped = [UInt8](
        repeating: 0, count: (yuvCodes ?? (bitDepth == 8 ? .rgba : .rgba64le)).byteCount(width: width, height: height))

    /// Starts decoding `path`.
    ///
    /// - Parameters:
    ///   - path: the video.
    ///   - eachFrameOnce: every decoded frame once, in order, whatever its time; otherwise
    ///     ffmpeg repeats or drops frames to keep the stream's frame rate, as a player would.
    ///   - layout: whether the frames are stacked alpha; `auto` reads the file's tag.
    /// - Throws: a ``DecodeError`` when ffprobe cannot read it, or when stacked frames have
    ///   an odd height; a failure when ffmpeg or ffprobe is missing.
    init(path: String, eachFrameOnce: Bool = false, layout: VideoLayout = .auto) throws {
        self.path = path
        let ffmpeg = try VideoSink.locateFFmpeg(for: .comparingVideos)
        let stream = try VideoFrames.stream(of: path, ffprobe: try VideoFrames.locateFFprobe())
        (width, height) = (stream.width, stream.height)
        colorSpace = stream.primaries == "smpte432" ? .displayP3 : .srgb
        let tagged = StackedAlpha.contentHeight(comment: stream.comment, storedHeight: stream.height)
        isStacked = layout == .stacked || layout == .auto && tagged != nil
        stackedHeight = tagged ?? stream.height / 2
        if isStacked, height % 2 != 0 {
            throw DecodeError.oddStackedHeight(path: path, width: width, height: height)
        }
        bitDepth = VideoFrames.eightBitRGB.contains(stream.pixelFormat) ? 8 : 16
        // A WebM's alpha rides in a side stream that only ffmpeg's RGBA output carries.
        yuvCodes =
            stream.hasAlphaSideStream ? nil : ["yuv420p": .yuv420p, "yuv420p10le": .yuv420p10le][stream.pixelFormat]
        // ffmpeg's own VP9 and VP8 decoders drop the alpha that libvpx reads from its side stream.
        let decoder =
            stream.hasAlphaSideStream
            ? (["vp9": ["-c:v", "libvpx-vp9"], "vp8": ["-c:v", "libvpx"]][stream.codec] ?? []) : []
        // Video is in the matrix it is tagged with, BT.709 when untagged (ffmpeg would take
        // untagged SD video as BT.601); a JPEG is JFIF's BT.601 at full range, which ffmpeg
        // reads from the file.
        matrix = ["smpte170m", "bt470bg"].contains(stream.colorSpace) ? .bt601 : .bt709
        let inputMatrix = stream.codec == "mjpeg" ? "" : "in_color_matrix=\(matrix.ffmpegName):"
        var arguments = ["-hide_banner", "-loglevel", "error"] + decoder + ["-i", path, "-map", "0:v:0"]
        if yuvCodes == nil { arguments += ["-vf", "scale=\(inputMatrix)flags=accurate_rnd+full_chroma_int"] }
        if eachFrameOnce { arguments += ["-fps_mode", "passthrough"] }
        arguments += [
            "-f", "rawvideo", "-pix_fmt", yuvCodes?.rawValue ?? (bitDepth == 8 ? "rgba" : "rgba64le"), "pipe:1",
        ]
        process = try ChildProcess(executable: ffmpeg, arguments: arguments, readsOutput: true)
    }

    /// ffmpeg's pixel formats of 8-bit RGB, packed or planar, with or without alpha, or a
    /// palette of such colours.
    private static let eightBitRGB: Set = [
        "rgb24", "bgr24", "rgba", "bgra", "argb", "abgr", "rgb0", "bgr0", "0rgb", "0bgr", "gbrp", "gbrap", "pal8",
    ]

    deinit { process.kill() }

    /// The next frame, or nil after the last one.
    func next() throws -> FrameSamples? {
        guard var frame = try nextStored() else { return nil }
        if isStacked { frame = StackedAlphaLayout.recombine(frame, contentHeight: stackedHeight) }
        frame.colorSpace = colorSpace
        return frame
    }

    /// Reads the next frame's bytes and drops them: converting them is most of a frame's
    /// cost (a bundle measures 5 of a loop's 600 frames).
    func skip() throws -> Bool { try read(into: &skipped) }

    /// The next frame as the stream stores it.
    private func nextStored() throws -> FrameSamples? {
        if yuvCodes == .yuv420p10le {
            var raw = [UInt16](repeating: 0, count: PixelFormat.yuv420p10le.byteCount(width: width, height: height) / 2)
            guard try read(into: &raw) else { return nil }
            return FrameSamples(
                yuv420p10: raw.map { UInt16(littleEndian: $0) }, width: width, height: height, matrix: matrix)
        }
        if yuvCodes == .yuv420p {
            var raw = [UInt8](repeating: 0, count: PixelFormat.yuv420p.byteCount(width: width, height: height))
            guard try read(into: &raw) else { return nil }
            // An 8-bit code is the 10-bit code of the same value over 4 (16 is 64, 235 is 940).
            return FrameSamples(yuv420p10: raw.map { UInt16($0) << 2 }, width: width, height: height, matrix: matrix)
        }
        if bitDepth == 8 {
            var raw = [UInt8](repeating: 0, count: 4 * width * height)
            guard try read(into: &raw) else { return nil }
            return FrameSamples(width: width, height: height, channels: 4, bitDepth: 8, samples: raw.map(UInt16.init))
        }
        var raw = [UInt16](repeating: 0, count: 4 * width * height)
        guard try read(into: &raw) else { return nil }
        let samples = raw.map { UInt16(littleEndian: $0) }
        return FrameSamples(width: width, height: height, channels: 4, bitDepth: 16, samples: samples)
    }

    /// Fills `raw` with the next frame's bytes; false after the last frame.
    private func read<Sample>(into raw: inout [Sample]) throws -> Bool {
        let complete = try raw.withUnsafeMutableBytes { buffer in
            Result { () throws in try process.read(into: buffer) }
        }.get()
        guard complete else {
            guard let status = process.finish(unless: { Interruption.isRequested }) else {
                throw InterruptionError()
            }
            if status != 0 {
                throw DecodeError.ffmpegCannotDecode(path: path, stderrTail: process.stderrTail)
            }
            return false
        }
        index += 1
        return true
    }

    /// The ffprobe binary, or an error that says how to get it.
    static func locateFFprobe() throws -> String {
        try ChildProcess.locate("ffprobe", environmentOverride: "FLUIDGRADIENT_FFPROBE", missing: .ffprobeNotFound)
    }

    /// What ffprobe prints about the first video stream of `path` for `entries` (its
    /// `-show_entries` value), in its `default=nw=1` form: one `key=value` a line, or
    /// in `csv=p=0` form with `csv`. Empty when ffprobe fails or prints over `limit` bytes.
    static func probe(_ path: String, ffprobe: String, entries: String, csv: Bool = false, limit: Int = 1 << 16)
        throws -> [Substring]
    {
        let probe = try ChildProcess(
            executable: ffprobe,
            arguments: [
                "-v", "error", "-select_streams", "v:0", "-show_entries", entries,
                "-of", csv ? "csv=p=0" : "default=nw=1", path,
            ],
            readsOutput: true)
        var output: [UInt8]?
        do {
            output = try readToEnd(probe.outputDescriptor, limit: limit) { _ in DecodeError.notAVideo(path: path) }
        } catch let error as InterruptionError {
            probe.kill()
            throw error
        } catch {
            // A read error is as no output, which the callers refuse.
        }
        let text = String(decoding: output ?? [], as: UTF8.self)
        _ = probe.finish()
        return text.split(whereSeparator: \.isNewline)
    }

    /// The first video stream's size, codec, pixel format, Y′CbCr matrix and colour
    /// primaries, whether it carries alpha aside (WebM's alpha_mode), and the file's global
    /// `comment` tag.
    private static func stream(of path: String, ffprobe: String) throws
        -> (
            width: Int, height: Int, codec: String, pixelFormat: String, colorSpace: String, hasAlphaSideStream: Bool,
            comment: String?, primaries: String
        )
    {
        let entries =
            "stream=codec_name,width,height,pix_fmt,color_space,color_primaries:stream_tags=alpha_mode"
            + ":format_tags=comment"
        let lines = try probe(path, ffprobe: ffprobe, entries: entries)
        var fields: [String: String] = [:]
        for line in lines {
            let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let width = fields["width"].flatMap(Int.init), let height = fields["height"].flatMap(Int.init), width > 0,
            height > 0
        else {
            throw DecodeError.notAVideo(path: path)
        }
        let hasAlphaSideStream = fields["TAG:alpha_mode"] == "1" || fields["TAG:ALPHA_MODE"] == "1"
        // Matroska stores tag names in capitals.
        let comment = fields["TAG:comment"] ?? fields["TAG:COMMENT"]
        return (
            width, height, fields["codec_name"] ?? "", fields["pix_fmt"] ?? "", fields["color_space"] ?? "",
            hasAlphaSideStream, comment, fields["color_primaries"] ?? ""
        )
    }
}
