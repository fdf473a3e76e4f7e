import FluidGradient

/// The codec of an `.mp4` (`--codec`); every other container has one codec of its own.
public enum VideoCodec: String, CaseIterable, Sendable {
    /// x264, 8-bit yuv420p from dithered frames: what every player takes.
    case h264
    /// x265 Main 10, tagged `hvc1` so that Safari and QuickTime play it.
    case hevc
    /// SVT-AV1, 10-bit.
    case av1

    /// The name people know it by.
    package var displayName: String {
        switch self {
        case .h264: "H.264"
        case .hevc: "HEVC"
        case .av1: "AV1"
        }
    }

    /// The raw layout the encoder is fed: our own 4:2:0 conversion, 8-bit and dithered for
    /// H.264, 10-bit from the frame without dither for HEVC and AV1 (DESIGN section 10).
    var inputFormat: PixelFormat { self == .h264 ? .yuv420p : .yuv420p10le }

    /// The containers that can hold this codec at all, of those we write.
    var containersThatHoldIt: Set<VideoContainer> {
        switch self {
        case .h264: [.mp4, .mov]
        case .hevc: [.mp4, .mov]
        case .av1: [.mp4, .mov, .webm, .avif]
        }
    }

    /// Refuses `--codec` for an output other than `.mp4`, saying whether that container
    /// could hold the codec at all.
    package static func check(_ codec: VideoCodec, for container: VideoContainer, path: String) throws(OutputError) {
        guard container != .mp4 else { return }
        throw OutputError.codecNeedsMP4(
            codec: codec.rawValue, path: path, container: container.rawValue,
            holdsIt: codec.containersThatHoldIt.contains(container))
    }

    /// The smallest frame the encoder takes, and whether it needs even sides (4:2:0 chroma
    /// with no odd column or row): x265 refuses frames under 16 rows and, at 3.5, crashes
    /// on some frames narrower than 50 columns (40x40, 48x64); SVT-AV1 refuses sides under
    /// 64. Both crop an odd side silently rather than refuse it.
    var smallestSize: (width: Int, height: Int) {
        switch self {
        case .h264: (2, 2)
        case .hevc: (64, 16)
        case .av1: (64, 64)
        }
    }

    /// The encoder's options in an `.mp4`, after the input: `ownRateControl` is false when
    /// the user's extra options choose the rate.
    ///
    /// The encoders write the BT.709 tags into the bitstream (x265's VUI, AV1's sequence
    /// header colour description) from ffmpeg's colour options; the mp4 muxer writes the
    /// same into its `colr` box. x265's output depends on its frame-thread count, which it
    /// picks from the cores, so it is pinned to one (its wavefront threads still run in
    /// parallel and do not change the output); SVT-AV1's does not depend on its threads.
    ///
    /// SVT-AV1 runs without its temporal filter, which blends neighbouring frames into each
    /// key frame to denoise camera footage: a moving loop's first frame came out 3 to 8 dB
    /// worse than the frames after it (neon's 10 s loop at 640x360, CRF 35: frame 0 at
    /// 46.2 dB, the loop 50.6 dB; without the filter 52.6 and 51.1, 1% fewer bytes).
    func mp4Arguments(ownRateControl: Bool) -> [String] {
        switch self {
        case .h264:
            ["-c:v", "libx264", "-preset", "medium"] + (ownRateControl ? ["-crf", "18"] : []) + ["-pix_fmt", "yuv420p"]
        case .hevc:
            // info=0: no SEI with x265's version and options (2.4 kB in every file).
            ["-c:v", "libx265", "-preset", "fast"] + (ownRateControl ? ["-crf", "22"] : [])
                + ["-x265-params", "log-level=error:info=0:frame-threads=1"]
                + ["-tag:v", "hvc1", "-pix_fmt", "yuv420p10le"]
        case .av1:
            ["-c:v", "libsvtav1", "-preset", "8"] + (ownRateControl ? ["-crf", "35"] : [])
                + ["-svtav1-params", VideoCodec.svtParameters, "-pix_fmt", "yuv420p10le"]
        }
    }

    /// SVT-AV1's own parameters: no temporal filtering of key frames (``mp4Arguments(ownRateControl:)``).
    static let svtParameters = "enable-tf=0"
}
