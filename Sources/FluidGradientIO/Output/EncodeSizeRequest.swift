import FluidGradient
import Foundation

/// The size a video or animated image is encoded at, for players to scale to its display
/// size: what `--encode-size` asks.
public enum EncodeSizeRequest: Equatable, Sendable {
    /// The smallest size at which the blur keeps a bilinear upscale within the codecs'
    /// own loss: `--encode-size auto`.
    case auto
    /// The display size itself: `--encode-size full`.
    case full
    /// This size, which must keep the display size's aspect ratio and be no larger.
    case size(width: Int, height: Int)

    /// Reads `--encode-size`'s text: `auto`, `full` or a size such as `640x360`.
    ///
    /// - Parameter text: The text, in any case.
    /// - Throws: ``OutputError/unreadableEncodeSize(text:)`` for anything else.
    public init(parsing text: String) throws(OutputError) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "full": self = .full
        default:
            guard let size = PresetLimits.parseSize(text), size.width > 0, size.height > 0 else {
                throw OutputError.unreadableEncodeSize(text: text)
            }
            self = .size(width: size.width, height: size.height)
        }
    }

    /// The width and height `preset` is encoded at under this request, as
    /// `Preset.write(to:…)` would encode a video or a bundle's loops: for a service to plan a
    /// job's memory before it runs.
    ///
    /// - Parameter preset: the design, at its display size.
    /// - Returns: the preset's own size for `full`, what `auto` picks for it, or the size
    ///   asked (which an encode refuses when it does not fit the preset).
    public func dimensions(for preset: Preset) -> (width: Int, height: Int) {
        switch self {
        case .full: return (preset.width, preset.height)
        case .auto:
            let size = EncodeSize.automatic(for: preset)
            return (size.width, size.height)
        case .size(let width, let height): return (width, height)
        }
    }

    /// What a container gets without `--encode-size`: `full` for `.mov`, the ProRes master
    /// that editors crop, grade and scale themselves; `auto` for the delivery formats,
    /// which players scale to the element showing them.
    package static func standard(for container: VideoContainer) -> EncodeSizeRequest {
        container == .mov ? .full : .auto
    }

    /// The size to render `preset` at for `path`, a `container` file.
    ///
    /// - Parameters:
    ///   - preset: the resolved preset, at the output size.
    ///   - container: the output's container.
    ///   - path: the output, for messages.
    /// - Returns: the encode size; the preset's own size for `full`.
    /// - Throws: ``OutputError`` for a size larger than the output in either side,
    ///   of another aspect ratio, or with an odd side where the container needs even ones.
    package func resolve(
        for preset: Preset, container: VideoContainer, path: String
    ) throws -> EncodeSize {
        let (fullWidth, fullHeight) = (preset.width, preset.height)
        switch self {
        case .full: return EncodeSize(width: fullWidth, height: fullHeight, reason: .requested)
        case .auto: return EncodeSize.automatic(for: preset)
        case .size(let width, let height):
            guard width <= fullWidth, height <= fullHeight else {
                throw OutputError.encodeSizeTooLarge(
                    width: width, height: height, outputWidth: fullWidth, outputHeight: fullHeight)
            }
            guard width * fullHeight == height * fullWidth else {
                throw OutputError.encodeSizeAspect(
                    width: width, height: height, outputWidth: fullWidth, outputHeight: fullHeight)
            }
            if container.needsEvenSides, width % 2 != 0 || height % 2 != 0 {
                throw OutputError.encodeSizeOdd(
                    width: width, height: height, path: path, outputWidth: fullWidth, outputHeight: fullHeight)
            }
            return EncodeSize(width: width, height: height, reason: .requested)
        }
    }

    /// "give …": sizes that keep `width × height`'s aspect ratio with even sides, or auto.
    static func suggestion(width: Int, height: Int) -> String {
        let sizes = EncodeSize.factors(width: width, height: height).prefix(3).map { "\(width / $0)x\(height / $0)" }
        return sizes.isEmpty
            ? "give full or auto (no smaller size of this aspect ratio has whole, even sides)"
            : "give a size such as \(sizes.joined(separator: ", ")), or auto"
    }
}

extension VideoContainer {
    /// Whether the encoder takes only even sides (4:2:0 chroma in x264).
    package var needsEvenSides: Bool { self == .mp4 || self == .avif }
}

extension EncodeSize {
    /// The note for a file encoded at this size rather than `preset`'s, or nil when it is
    /// the preset's size.
    ///
    /// - Parameters:
    ///   - preset: the preset at the output size.
    ///   - path: the output.
    package func note(for preset: Preset, path: String) -> String? {
        guard !isFullSize(of: preset) else { return nil }
        let scaled =
            "\(path) is encoded at \(width)x\(height), for players to scale up to "
            + "\(preset.width)x\(preset.height)"
        switch reason {
        case .blur(let bound):
            let sigma = String(format: "%.1f", preset.frameSpec.sigma)
            return scaled + ": at this blur (sigma \(sigma) px) a bilinear upscale stays within "
                + String(format: "%.2f", bound) + " levels of the full-size frame; --encode-size full keeps "
                + "the full size"
        default:
            return scaled + " (--encode-size)"
        }
    }
}
