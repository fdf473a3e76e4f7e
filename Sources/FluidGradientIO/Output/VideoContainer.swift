import FluidGradient
import Foundation

/// The video containers and animated images the `ffmpeg` binary writes, named by their
/// file extensions (`VideoContainer(rawValue: "webm")`).
public enum VideoContainer: String, CaseIterable, Sendable {
    /// H.264 (yuv420p), HEVC or AV1 (10-bit), BT.709 tagged (``VideoCodec``).
    case mp4
    /// ProRes 4444 with alpha.
    case mov
    /// VP9, with alpha when the frame has transparency.
    case webm
    /// Palette-optimised GIF.
    case gif
    /// Animated WebP, lossy, with alpha when the frame has transparency.
    case webp
    /// Animated PNG, 8-bit RGB or RGBA.
    case apng
    /// Animated AVIF: AV1, with an alpha track when the frame has transparency.
    case avif

    /// The MIME type a file of this container is served with: `video/mp4`, `image/apng`.
    public var mimeType: String {
        switch self {
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .webm: "video/webm"
        case .gif, .webp, .apng, .avif: "image/" + rawValue
        }
    }

    /// The space this container's files are rendered in when `requested` is asked for: a
    /// GIF carries no colour space, so a player shows its values as sRGB, and a Display
    /// P3 GIF is rendered in sRGB instead (its colours gamut mapped).
    package func colorSpace(for requested: ColorSpace) -> ColorSpace {
        self == .gif ? .srgb : requested
    }

    /// The codec of every file of this container but `.mp4`, whose codec is chosen.
    package var codecName: String {
        switch self {
        case .mp4: "H.264, HEVC or AV1"
        case .mov: "ProRes 4444"
        case .webm: "VP9"
        case .gif: "GIF"
        case .webp: "WebP"
        case .apng: "APNG"
        case .avif: "AV1"
        }
    }

    /// Whether pieces of one render in this container, each a `--frame-range`, join into the
    /// whole with ffmpeg's concat demuxer and no re-encoding. An animated image does not: it is
    /// one loop, a GIF above 50 fps keeps every k-th frame of its own piece, a GIF's palette is
    /// its piece's, ffmpeg cannot read an animated WebP back, and APNG and AVIF number their
    /// frames from each piece's start.
    public var joinsPieces: Bool {
        switch self {
        case .mp4, .mov, .webm: true
        case .gif, .webp, .apng, .avif: false
        }
    }
}
