import FluidGradient

/// One file a bundle encodes: a loop at the encode size, or a poster at the display size.
struct BundleOutput: Sendable {
    enum Kind: Sendable {
        /// The whole loop, in `container`, with `codec` for an `.mp4`; stacked alpha when the
        /// frame has transparency (the player recombines it).
        case loop(VideoContainer, VideoCodec, stacked: Bool)
        /// Frame 0 at the display size, in `container` (a one-frame `.webp` or `.avif`).
        case poster(VideoContainer)
        /// Frame 0 at the display size as a PNG: the fallback poster of a transparent loop,
        /// and the source of the JPEG of an opaque one.
        case posterPNG
        /// The opaque loop's fallback poster, converted from the PNG (``JPEGPoster``).
        case posterJPEG
    }

    var file: String
    var kind: Kind

    /// The loops, in the order a browser should try them: AV1 (the smallest), HEVC (what
    /// Safari plays where it has no AV1 decoder), VP9 (older Chrome and Firefox), H.264
    /// (everything). A transparent loop is stacked alpha in each .mp4 codec, with no VP9:
    /// one player recombines every source.
    static func loops(transparent: Bool) -> [BundleOutput] {
        let stacked = transparent ? "-stacked" : ""
        var loops = [
            BundleOutput(file: "loop-av1\(stacked).mp4", kind: .loop(.mp4, .av1, stacked: transparent)),
            BundleOutput(file: "loop-hevc\(stacked).mp4", kind: .loop(.mp4, .hevc, stacked: transparent)),
            BundleOutput(file: "loop-h264\(stacked).mp4", kind: .loop(.mp4, .h264, stacked: transparent)),
        ]
        if !transparent {
            loops.insert(BundleOutput(file: "loop-vp9.webm", kind: .loop(.webm, .h264, stacked: false)), at: 2)
        }
        return loops
    }

    /// The posters, best first: AVIF, WebP, then the fallback every browser shows, a JPEG
    /// (or a PNG, which keeps transparency).
    static let posters = [
        BundleOutput(file: "poster.avif", kind: .poster(.avif)),
        BundleOutput(file: "poster.webp", kind: .poster(.webp)),
        BundleOutput(file: "poster.png", kind: .posterPNG),
    ]

    /// What an opaque loop's PNG poster becomes.
    static let jpegPoster = BundleOutput(file: "poster.jpg", kind: .posterJPEG)

    /// The MIME type, without a codecs parameter.
    var mimeType: String {
        switch kind {
        case .loop(.webm, _, _): "video/webm"
        case .loop: "video/mp4"
        case .poster(let container): "image/" + container.rawValue
        case .posterPNG: "image/png"
        case .posterJPEG: "image/jpeg"
        }
    }

    /// The sink that encodes this output at `width` × `height` (the shown size; a stacked
    /// file holds two padded halves), tagged with `colorSpace`, a loop at the rate `crf` (nil: the
    /// codec's usual).
    ///
    /// - Throws: what ``VideoSink`` or ``PNGFileSink`` throws: a missing ffmpeg, an
    ///   unwritable directory, a size the encoder refuses.
    func sink(
        path: String, width: Int, height: Int, fps: Double, frames: Int, transparent: Bool, dither: Bool,
        colorSpace: ColorSpace, crf: Int? = nil, announce: ((String) -> Void)?
    ) throws -> FrameSink {
        switch kind {
        case .posterPNG, .posterJPEG:
            return try PNGFileSink(
                path: path, depth: 8, alpha: transparent, options: PNGOptions(colorSpace: colorSpace))
        case .poster(let container):
            return try VideoSink(
                path: path, container: container, width: width, height: height, fps: fps, frameCount: 1,
                hasTransparency: transparent, colorSpace: colorSpace, matrix: BundleOutput.matrix,
                announce: announce)
        case .loop(let container, let codec, let stacked):
            let video = try VideoSink(
                path: path, container: container, codec: codec, width: width,
                height: stacked ? StackedAlphaSink.storedHeight(height) : height,
                fps: fps,
                frameCount: frames, hasTransparency: transparent && !stacked, colorSpace: colorSpace,
                matrix: BundleOutput.matrix,
                extraOptions: (stacked ? StackedAlphaSink.ffmpegOptions(height: height) : [])
                    + (crf.map(rateOptions) ?? []),
                announce: announce)
            guard stacked else { return video }
            return StackedAlphaSink(wrapping: video, width: width, height: height, dither: dither)
        }
    }

    /// The Y′CbCr matrix of every loop and of the AVIF poster: BT.601, which the engines'
    /// software conversions read closest to the standard (``YUVMatrix``; docs/web.md).
    static let matrix = YUVMatrix.bt601

    /// Whether this file shows the loop (and so is measured at several instants).
    var isLoop: Bool {
        if case .loop = kind { return true }
        return false
    }
}
