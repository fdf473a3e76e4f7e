/// The matrix that turns gamma-encoded R′G′B′ into Y′CbCr: ITU-T H.273's
/// `matrix_coefficients`, as a video's bitstream and container name it.
///
/// BT.709 is the HD standard and what `render` writes. BT.601 (tagged `smpte170m`) is what
/// the web bundle's loops use: libyuv's software conversion, which Chromium and Firefox
/// use where no GPU converts, clamps BT.709's blue coefficient from 2.112 to 2.0 (blue up
/// to 6 levels low) but BT.601's only from 2.018; engines that follow the standard read
/// either exactly (docs/web.md, "What viewers see").
package enum YUVMatrix: String, CaseIterable, Sendable {
    case bt709
    case bt601

    /// The name ffmpeg's `-colorspace`, ffprobe's `color_space` and swscale use.
    package var ffmpegName: String { self == .bt709 ? "bt709" : "smpte170m" }

    /// The code of H.273 (1 and 6).
    package var code: Int { self == .bt709 ? 1 : 6 }

    /// The luma weights and chroma divisors.
    package var weights: YUV.Weights { self == .bt709 ? .bt709 : .bt601 }

    /// The inverse's coefficients on normalised chroma (Cb and Cr in −½...½): R = Y′ + r·Cr,
    /// G = Y′ − g.cb·Cb − g.cr·Cr, B = Y′ + b·Cb.
    package var inverse: (r: Float, g: (cb: Float, cr: Float), b: Float) {
        switch self {
        case .bt709: (1.5748, (0.187_324_27, 0.468_124_27), 1.8556)
        case .bt601: (1.402, (0.344_136_29, 0.714_136_29), 1.772)
        }
    }
}
