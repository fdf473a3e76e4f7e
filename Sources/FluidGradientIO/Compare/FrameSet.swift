import FluidGradient
import Foundation

/// One side of a comparison: a PNG, a directory or numbered pattern of PNGs, or a video.
public struct FrameSet: Sendable {
    /// How a frame is identified when matching it with the other side.
    public enum Key: Hashable, Sendable, Comparable {
        case name(String)
        case number(Int)
    }

    public enum Kind: Sendable {
        case png(String)
        /// PNG files of a directory, by name.
        case directory(String, files: [String])
        /// Files matching a numbered pattern, by number.
        case pattern(FramePattern, numbers: [Int])
        case video(String)
    }

    public let path: String
    public let kind: Kind

    /// Works out what `path` is: a pattern (has `%`), a directory, a video (by
    /// extension) or a PNG. Missing paths are input errors that name them.
    public init(path: String) throws(CommandError) {
        self.path = path
        if path.contains("%") {
            let pattern = try FramePattern(path)
            let directory = pattern.directory
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                let reason = lengthProblem(directory) ?? "the directory \(directory) does not exist"
                throw CommandError.input("cannot read \(path): \(reason)")
            }
            let hasDirectory = pattern.path(frame: 0).contains("/")
            let numbers = Set(names.compactMap { pattern.frameNumber(ofPath: hasDirectory ? directory + "/" + $0 : $0) }).sorted()
            guard !numbers.isEmpty else { throw CommandError.input("cannot read \(path): no files match the pattern") }
            kind = .pattern(pattern, numbers: numbers)
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError.input("cannot read \(path): " + (lengthProblem(path) ?? "no such file or directory"))
        }
        if isDirectory.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
            guard !names.isEmpty else { throw CommandError.input("cannot read \(path): the directory holds no PNG files") }
            kind = .directory(path, files: names)
            return
        }
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        kind = ["mp4", "mov", "webm", "gif", "mkv", "avi", "m4v"].contains(ext) ? .video(path) : .png(path)
    }

    /// The frames' keys in order; nil for a video, whose frames are only known by decoding it.
    var keys: [Key]? {
        switch kind {
        case .png: return [.number(0)]
        case .directory(_, let files): return files.map { .name($0) }
        case .pattern(_, let numbers): return numbers.map { .number($0) }
        case .video: return nil
        }
    }

    /// How a frame is named in reports.
    func label(of key: Key) -> String {
        switch (kind, key) {
        case (.png(let path), _): return URL(fileURLWithPath: path).lastPathComponent
        case (.pattern(let pattern, _), .number(let number)): return URL(fileURLWithPath: pattern.path(frame: number)).lastPathComponent
        case (_, .name(let name)): return name
        case (_, .number(let number)): return "frame \(number)"
        }
    }

    /// Decodes the frame with `key`.
    func load(_ key: Key) throws(CommandError) -> FrameSamples {
        let file: String
        switch (kind, key) {
        case (.png(let path), _): file = path
        case (.directory(let directory, _), .name(let name)): file = directory + "/" + name
        case (.pattern(let pattern, _), .number(let number)): file = pattern.path(frame: number)
        default: throw CommandError.input("\(path) has no frame \(label(of: key))")
        }
        return FrameSamples(try PNGFile.read(file))
    }
}

/// Frames decoded from a video by the ffmpeg binary, one at a time, as 16-bit RGBA.
final class VideoFrames {
    let width: Int
    let height: Int
    private let process: ChildProcess
    private let path: String
    private var index = 0

    init(path: String) throws(CommandError) {
        self.path = path
        let ffmpeg = try VideoSink.locateFFmpeg(for: "comparing videos", otherwise: "; PNG frames compare without it")
        let probe = try ChildProcess.locate(
            "ffprobe", environmentOverride: "FLUIDGRADIENT_FFPROBE",
            missing: "ffprobe was not found on PATH, and comparing videos needs it: install ffmpeg (apt-get install ffmpeg, which includes it) "
                + "or set FLUIDGRADIENT_FFPROBE to its path; PNG frames compare without it")
        let stream = try VideoFrames.stream(of: path, ffprobe: probe)
        (width, height) = (stream.width, stream.height)
        // ffmpeg's own VP9 and VP8 decoders drop the alpha that libvpx reads from its side stream.
        let decoder = stream.hasAlphaSideStream ? (["vp9": ["-c:v", "libvpx-vp9"], "vp8": ["-c:v", "libvpx"]][stream.codec] ?? []) : []
        process = try ChildProcess(
            executable: ffmpeg,
            arguments: ["-hide_banner", "-loglevel", "error"] + decoder + ["-i", path, "-map", "0:v:0",
                        "-vf", "scale=in_color_matrix=bt709:flags=accurate_rnd+full_chroma_int",
                        "-f", "rawvideo", "-pix_fmt", "rgba64le", "pipe:1"],
            readsOutput: true)
    }

    deinit { process.kill() }

    /// The next frame, or nil after the last one.
    func next() throws(CommandError) -> FrameSamples? {
        var raw = [UInt16](repeating: 0, count: 4 * width * height)
        let complete = try raw.withUnsafeMutableBytes { buffer in
            Result { () throws(CommandError) in try process.read(into: buffer) }
        }.get()
        guard complete else {
            guard let status = process.finish(unless: { Interruption.isRequested }) else {
                throw CommandError.interrupted
            }
            if status != 0 {
                throw CommandError.input("cannot read \(path): ffmpeg could not decode it (\(process.stderrTail))")
            }
            return nil
        }
        index += 1
        return FrameSamples(width: width, height: height, channels: 4, bitDepth: 16, samples: raw.map { UInt16(littleEndian: $0) })
    }

    /// The first video stream's size and codec, and whether it carries alpha aside (WebM's alpha_mode).
    private static func stream(of path: String, ffprobe: String) throws(CommandError)
        -> (width: Int, height: Int, codec: String, hasAlphaSideStream: Bool)
    {
        let probe = try ChildProcess(
            executable: ffprobe,
            arguments: ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height:stream_tags=alpha_mode", "-of", "default=nw=1", path],
            readsOutput: true)
        var output: [UInt8]?
        do {
            output = try readToEnd(probe.outputDescriptor, limit: 1 << 16) { CommandError.input($0) }
        } catch where error.kind == .interrupted {
            probe.kill()
            throw error
        } catch {
            // A read error is as no output, which is refused below.
        }
        let text = String(decoding: output ?? [], as: UTF8.self)
        _ = probe.finish()
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let width = fields["width"].flatMap(Int.init), let height = fields["height"].flatMap(Int.init), width > 0, height > 0 else {
            throw CommandError.input("cannot read \(path): not a video ffprobe can read")
        }
        return (width, height, fields["codec_name"] ?? "", fields["TAG:alpha_mode"] == "1" || fields["TAG:ALPHA_MODE"] == "1")
    }
}
