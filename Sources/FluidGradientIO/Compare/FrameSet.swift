import FluidGradient
import Foundation

/// One side of a comparison: a PNG, a directory or numbered pattern of PNGs, a video, or
/// an animated image.
package struct FrameSet: Sendable {
    /// How a frame is identified when matching it with the other side.
    package enum Key: Hashable, Sendable, Comparable {
        case name(String)
        case number(Int)
    }

    package enum Kind: Sendable {
        case png(String)
        /// PNG files of a directory, by name.
        case directory(String, files: [String])
        /// Files matching a numbered pattern, by number.
        case pattern(FramePattern, numbers: [Int])
        case video(String)
        /// A still or animated WebP, AVIF or APNG file, whose frames each last a time of their own.
        case animation(String, AnimatedImageFormat)
    }

    /// How the frames of videos and animated images are read.
    package struct Reading: Sendable {
        /// The rate, in frames per second, at which animated images are sampled; nil for
        /// their own (see ``AnimationSampler``).
        package var rate: Double?
        /// Whether videos are in the stacked-alpha layout.
        package var layout: VideoLayout

        package init(rate: Double? = nil, layout: VideoLayout = .auto) {
            self.rate = rate
            self.layout = layout
        }
    }

    package let path: String
    package let kind: Kind
    package let reading: Reading

    /// Works out what `path` is: a pattern (has `%`), a directory, a video or an animated
    /// image (by extension) or a PNG. Missing paths are ``DecodeError``s that name them.
    package init(path: String, reading: Reading = Reading()) throws {
        self.path = path
        self.reading = reading
        if path.contains("%") {
            let pattern = try FramePattern(path)
            let directory = pattern.directory
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                throw isTooLong(directory)
                    ? DecodeError.pathTooLong(path: path)
                    : DecodeError.missingPatternDirectory(path: path, directory: directory)
            }
            let hasDirectory = pattern.path(frame: 0).contains("/")
            let numbers = Set(
                names.compactMap { pattern.frameNumber(ofPath: hasDirectory ? directory + "/" + $0 : $0) }
            ).sorted()
            guard !numbers.isEmpty else { throw DecodeError.noPatternMatches(path: path) }
            kind = .pattern(pattern, numbers: numbers)
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw isTooLong(path) ? DecodeError.pathTooLong(path: path) : DecodeError.missing(path: path)
        }
        if isDirectory.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
            guard !names.isEmpty else { throw DecodeError.noPNGFiles(path: path) }
            kind = .directory(path, files: names)
            return
        }
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        if let format = AnimatedImageFormat(path: path) {
            kind = .animation(path, format)
        } else {
            kind =
                ["mp4", "mov", "webm", "gif", "mkv", "avi", "m4v", "jpg", "jpeg"].contains(ext)
                ? .video(path) : .png(path)
        }
    }

    /// Whether this is an animated image, whose frames ``Reading/rate`` samples.
    package var isAnimation: Bool {
        if case .animation = kind { return true }
        return false
    }

    /// Whether this is a video, whose layout ``Reading/layout`` gives.
    package var isVideo: Bool {
        if case .video = kind { return true }
        return false
    }

    /// The frames' keys in order; nil for a video or an animated image, whose frames are only
    /// known by decoding it.
    var keys: [Key]? {
        switch kind {
        case .png: return [.number(0)]
        case .directory(_, let files): return files.map { .name($0) }
        case .pattern(_, let numbers): return numbers.map { .number($0) }
        case .video, .animation: return nil
        }
    }

    /// The decoder of a video or an animated image, whose frames come in order only; nil
    /// for PNGs.
    func openSequence() throws -> DecodedFrames? {
        switch kind {
        case .video(let path): return try VideoFrames(path: path, layout: reading.layout)
        case .animation(let path, let format): return try AnimationSampler(format.open(path), rate: reading.rate)
        default: return nil
        }
    }

    /// How a frame is named in reports.
    func label(of key: Key) -> String {
        switch (kind, key) {
        case (.png(let path), _): return URL(fileURLWithPath: path).lastPathComponent
        case (.pattern(let pattern, _), .number(let number)):
            return URL(fileURLWithPath: pattern.path(frame: number)).lastPathComponent
        case (_, .name(let name)): return name
        case (_, .number(let number)): return "frame \(number)"
        }
    }

    /// Decodes the frame with `key`.
    func load(_ key: Key) throws -> FrameSamples {
        let file: String
        switch (kind, key) {
        case (.png(let path), _): file = path
        case (.directory(let directory, _), .name(let name)): file = directory + "/" + name
        case (.pattern(let pattern, _), .number(let number)): file = pattern.path(frame: number)
        default: throw DecodeError.noSuchFrame(path: path, frame: label(of: key))
        }
        return try PNGFile.read(file).samples
    }
}

/// The animated image formats compare reads, by file extension.
package enum AnimatedImageFormat: String, Sendable, CaseIterable {
    case webp, avif, apng

    /// Every format's extension, for messages: `.webp, .avif, .apng`.
    package static var extensions: String { allCases.map { "." + $0.rawValue }.joined(separator: ", ") }

    /// The format a file name's extension names, if any.
    init?(path: String) {
        self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Opens `path` with this format's decoder.
    func open(_ path: String) throws -> TimedFrames {
        switch self {
        case .webp: return try WebPAnimation(path: path)
        case .avif: return try AVIFSequence(path: path)
        case .apng: return try APNGFrames(path: path)
        }
    }
}
