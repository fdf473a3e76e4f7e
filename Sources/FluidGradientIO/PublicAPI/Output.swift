import FluidGradient
import Foundation

/// What a render writes, and where: the value behind `fluidgradient render -o` and
/// `--bundle`. ``init(path:)`` reads an output from its name as `-o` does; the cases say
/// the format and codec outright.
///
/// ```swift
/// try await preset.write(to: .video(path: "hero.mp4", container: .mp4, codec: .hevc))
/// try await preset.write(to: .pngSequence(pattern: "frames/%05d.png"), frames: .range(0..<60))
/// ```
public enum Output: Hashable, Sendable {
    /// One PNG file holding one frame, RGB or (when the frame has transparency) RGBA.
    case png(path: String, depth: Frame.Depth = .eight)
    /// Numbered PNG files: `pattern` holds one `%d` or `%05d`, which becomes each frame's
    /// index (`%%` is a percent sign). Each file is complete under its name or absent.
    case pngSequence(pattern: String, depth: Frame.Depth = .eight)
    /// A video or animated image encoded by the `ffmpeg` binary. `codec` chooses an
    /// `.mp4`'s (H.264 when nil); every other container has its own and takes none.
    case video(path: String, container: VideoContainer, codec: VideoCodec? = nil)
    /// Raw frames on standard output, one after another, for a program reading them.
    case raw(format: PixelFormat = .rgba)
    /// A web bundle in a directory of its own, as `render --bundle` writes it: the loop as
    /// AV1, HEVC, VP9 and H.264 (stacked alpha with its player when the frame has
    /// transparency), posters, `index.html` and `manifest.json`. An earlier bundle there is
    /// replaced whole. `encodesAtOnce` is how many of the files are encoded, and then
    /// measured, at the same time: all of them when nil (the fastest), 1 for one after
    /// another, so that only one encoder's memory, then one file's decoded frames, are in
    /// use at a time (at 3840x2160, AV1's alone is gigabytes). The files are the same bytes
    /// either way. `rates` sets a loop's constant rate factor by its codec (within
    /// ``Output/BundleCodec/crfRange``); every other loop's is searched on an excerpt, the fewest
    /// bytes that meet its quality bar. `manifest.json` records each loop's rate and how
    /// it was chosen.
    case bundle(directory: String, encodesAtOnce: Int? = nil, rates: [BundleCodec: Int] = [:])

    /// The output a name stands for, as `render -o` reads it: `-` for raw RGBA frames, a
    /// name with a `%d` for a PNG sequence, `.png` for one PNG, and a video's extension
    /// (`.mp4`, `.mov`, `.webm`, `.gif`, `.webp`, `.apng`, `.avif`) for that container.
    ///
    /// - Parameter path: The path, or `-`.
    /// - Throws: ``OutputError`` when the name is empty, its pattern is not one frame
    ///   number, or its extension names nothing this writes.
    public init(path: String) throws(OutputError) {
        switch try OutputTarget(parsing: path) {
        case .png(let path): self = .png(path: path)
        case .pngSequence(let pattern): self = .pngSequence(pattern: pattern.text)
        case .video(let path, let container): self = .video(path: path, container: container)
        case .raw: self = .raw()
        }
    }
}

extension Output {
    /// Refuses what the output alone cannot take, before any preset is read: a pattern that
    /// is not one frame number, a codec for a container other than `.mp4`, or a bundle's
    /// rate outside its codec's range.
    ///
    /// - Throws: ``OutputError`` naming the pattern, the codec or the rate.
    package func check() throws(OutputError) {
        switch self {
        case .pngSequence(let pattern, _): _ = try FramePattern(pattern)
        case .video(let path, let container, let codec?): try VideoCodec.check(codec, for: container, path: path)
        case .bundle(_, _, let rates):
            for codec in BundleCodec.allCases {
                guard let crf = rates[codec], !codec.crfRange.contains(crf) else { continue }
                throw OutputError.crfOutOfRange(codec: codec.rawValue, crf: crf, range: codec.crfRange)
            }
        default: break
        }
    }
}

extension Output {
    /// The path the output names, for messages: the file, the pattern, the directory, or
    /// `-` for standard output.
    package var path: String {
        switch self {
        case .png(let path, _), .video(let path, _, _): path
        case .pngSequence(let pattern, _): pattern
        case .raw: "-"
        case .bundle(let directory, _, _): directory
        }
    }
}
