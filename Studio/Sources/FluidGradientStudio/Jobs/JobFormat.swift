/// What a render job produces: a video, an animated image, or a web bundle (sent as a zip).
public enum JobFormat: String, CaseIterable, Codable, Sendable {
    /// H.264 in MP4.
    case mp4
    /// VP9 in WebM.
    case webm
    /// ProRes 4444 in QuickTime.
    case mov
    /// Palette-optimised GIF.
    case gif
    /// Animated WebP.
    case webp
    /// Animated PNG.
    case apng
    /// Animated AVIF.
    case avif
    /// The web bundle (`fluidgradient render --bundle`), downloaded as a zip of its folder.
    case bundle

    /// The extension of the file the client downloads.
    package var fileExtension: String { self == .bundle ? "zip" : rawValue }

    /// The `Content-Type` the downloaded file is sent with.
    package var contentType: String {
        switch self {
        case .mp4: "video/mp4"
        case .webm: "video/webm"
        case .mov: "video/quicktime"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .apng: "image/apng"
        case .avif: "image/avif"
        case .bundle: "application/zip"
        }
    }
}
