extension Output {
    /// The codec of one of a bundle's loops, as `--crf` and the bundle's `manifest.json` name
    /// it: a key of ``Output/bundle(directory:encodesAtOnce:rates:)``'s rates.
    public enum BundleCodec: String, CaseIterable, Hashable, Sendable {
        /// The AV1 `.mp4`, SVT-AV1.
        case av1
        /// The HEVC `.mp4`, x265.
        case hevc
        /// The H.264 `.mp4`, x264.
        case h264
        /// The VP9 `.webm`, libvpx.
        case vp9

        /// The constant rate factors its encoder takes: `0...63` for AV1 and VP9, `0...51` for
        /// HEVC and H.264. Lower is better and more bytes.
        public var crfRange: ClosedRange<Int> {
            switch self {
            case .av1, .vp9: 0...63
            case .hevc, .h264: 0...51
            }
        }
    }
}
