import FluidGradientIO

/// What a render job produces: a video or animated image in one of the library's
/// containers, or the web bundle (`fluidgradient render --bundle`) sent as a zip of its
/// folder. Its text in the API is the container's extension, or `bundle`.
package enum JobFormat: Hashable, Sendable, Codable, RawRepresentable {
    /// A video or animated image.
    case video(VideoContainer)
    /// The web bundle.
    case bundle

    /// Every format, as the API lists them.
    package static var allCases: [JobFormat] { VideoContainer.allCases.map(JobFormat.video) + [.bundle] }

    /// The format named `rawValue`: a container's extension, or `bundle`.
    package init?(rawValue: String) {
        if rawValue == "bundle" {
            self = .bundle
        } else if let container = VideoContainer(rawValue: rawValue) {
            self = .video(container)
        } else {
            return nil
        }
    }

    /// The format's name in the API.
    package var rawValue: String {
        switch self {
        case .video(let container): container.rawValue
        case .bundle: "bundle"
        }
    }

    /// The extension of the file the client downloads.
    package var fileExtension: String { self == .bundle ? "zip" : rawValue }

    /// The `Content-Type` the downloaded file is sent with.
    package var contentType: String {
        switch self {
        case .video(let container): container.mimeType
        case .bundle: "application/zip"
        }
    }
}
