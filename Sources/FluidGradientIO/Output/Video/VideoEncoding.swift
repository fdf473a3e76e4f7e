import FluidGradient
import Foundation

/// How each container is encoded: what we feed ffmpeg and what it is told.
package struct VideoEncoding: Sendable {
    package let container: VideoContainer
    /// The codec of an `.mp4`; other containers have their own and ignore it.
    package let codec: VideoCodec
    package let hasTransparency: Bool
    /// The space of the frames, whose primaries the file is tagged with.
    package let colorSpace: ColorSpace
    /// The Y′CbCr matrix of the Y′CbCr containers (.mp4, .webm, .avif): BT.709 for `render`,
    /// BT.601 for the web bundle's files (``YUVMatrix``). A .mov is always BT.709.
    package let matrix: YUVMatrix

    package init(
        container: VideoContainer, codec: VideoCodec = .h264, hasTransparency: Bool, colorSpace: ColorSpace = .srgb,
        matrix: YUVMatrix = .bt709
    ) {
        self.container = container
        self.codec = codec
        self.hasTransparency = hasTransparency
        self.colorSpace = colorSpace
        self.matrix = container == .mov ? .bt709 : matrix
    }

    /// Opaque H.264 takes our own BT.709 yuv420p (no conversion in ffmpeg, and 2.7× fewer
    /// bytes than RGBA), HEVC, AV1 and opaque VP9 our yuv420p10le; ProRes takes 16-bit
    /// RGBA for its 10-bit samples.
    ///
    /// VP9 at 10 bits (profile 2), measured on the default preset's 2 s loop at 480x270
    /// against the 16-bit render, at the same CRF 30: 24.0 kB and 47.9 dB, where 8 bits
    /// gave 32.4 kB and 44.9 dB; 8 bits needed CRF 20 and 60.9 kB for 46.5 dB, which
    /// 10 bits reach at CRF 35 in 19.7 kB. libvpx has no 10-bit alpha, so a transparent
    /// WebM stays 8-bit.
    package var inputFormat: PixelFormat {
        switch container {
        case .mp4: return codec.inputFormat
        case .webm: return hasTransparency ? .rgba : .yuv420p10le
        case .mov: return .rgba64le
        case .gif: return hasTransparency ? .rgba : .rgb24
        case .webp, .apng, .avif: return animatedImageInputFormat
        }
    }

    /// What the container loses of a frame with transparency, as a note for `path`, or nil.
    private func transparencyNote(for path: String) -> String? {
        guard hasTransparency else { return nil }
        switch container {
        case .mp4:
            return "\(codec == .h264 ? "H.264" : codec.displayName + " in .mp4") has no alpha, so \(path) shows the "
                + "transparent background as black; --alpha stacked keeps it for web pages "
                + "(colour above alpha, for the player), and .mov and .webm keep it"
        // paletteuse's alpha_threshold=128, below.
        case .gif:
            return "a GIF pixel is opaque or clear, so \(path) cuts soft transparency at 50% into hard edges; "
                + ".mov and .webm keep it"
        case .mov, .webm, .webp, .apng, .avif: return nil
        }
    }

    /// What `path` will not hold of what was asked, one note each: transparency, a GIF's
    /// frame rate, and a `-pix_fmt` that cannot add back what our own 4:2:0 frames dropped.
    package func notes(for path: String, fps: Double, extraOptions: [String]) -> [String] {
        var notes = transparencyNote(for: path).map { [$0] } ?? []
        let step = VideoEncoding.gifFrameStep(fps: fps)
        if container == .gif, step > 1 {
            notes.append(
                "GIF delays are whole hundredths of a second, "
                    + "so \(path) keeps every \(VideoEncoding.ordinal(step)) frame "
                    + "(\(String(format: "%.3g", fps / Double(step))) fps), lasting as long to the hundredth")
        }
        // ffmpeg takes the last of an option given twice.
        if inputFormat.isYUV420,
            let index = extraOptions.lastIndex(where: { VideoEncoding.optionName($0) == "pix_fmt" }),
            index + 1 < extraOptions.count, extraOptions[index + 1] != inputFormat.rawValue
        {
            let bits = inputFormat == .yuv420p ? 8 : 10
            notes.append(
                "frames reach ffmpeg as \(bits)-bit 4:2:0 (\(inputFormat.rawValue)), "
                    + "so -pix_fmt \(extraOptions[index + 1]) changes how \(path) is stored "
                    + "but cannot add back chroma detail or bit depth; .mov keeps 4:4:4 at 10 bits"
            )
        }
        return notes
    }

    /// An option's name without its dash and stream specifier: `b` for `-b:v:0`; nil for a
    /// word that is not an option.
    static func optionName(_ word: String) -> Substring? {
        guard word.hasPrefix("-"), word.count > 1 else { return nil }
        return word.dropFirst().prefix { $0 != ":" }
    }

    /// The first word of `options` that is an option named in `names`.
    static func firstOption(namedIn names: Set<Substring>, of options: [String]) -> String? {
        options.first { optionName($0).map(names.contains) ?? false }
    }

    static func ordinal(_ number: Int) -> String {
        switch number {
        case 2: "2nd"
        case 3: "3rd"
        default: "\(number)th"
        }
    }

    /// Whether this container's colour conversion is an ffmpeg filter of ours, which a
    /// filter in the extra options would replace.
    var convertsWithAFilter: Bool {
        container == .mov || container == .gif || ((container == .webm || container == .avif) && hasTransparency)
    }

    /// Refuses extra options that would silently undo what the file promises: a filter
    /// where our own filter converts the colours (ffmpeg keeps only the last `-vf`, and
    /// the file would be tagged BT.709 but converted as BT.601).
    package func check(extraOptions: [String]) throws {
        let filterOptions: Set<Substring> = [
            "vf", "lavfi", "filter", "filter_script", "filter_complex", "filter_complex_script",
        ]
        guard convertsWithAFilter, let filter = VideoEncoding.firstOption(namedIn: filterOptions, of: extraOptions)
        else { return }
        throw OutputError.filterClash(option: String(filter), container: container.rawValue)
    }

    /// Options that choose the encoder's rate control, where ours (a constant quality) must
    /// step aside: x264 keeps -crf over -b:v and -qp whatever their order. Caps such as
    /// -maxrate work alongside our -crf, and x264 and VP9 ignore -q:v, so those are not here.
    static let rateControlOptions: Set<Substring> = ["crf", "b", "qp"]

    /// The `-r` of the raw input: an integer, the NTSC rate 23.976 and its kin as the
    /// exact `N·1000/1001` that players and editors expect, or the decimal.
    package static func rateText(_ fps: Double) -> String {
        if fps == fps.rounded() { return String(Int(fps)) }
        let ntsc = (fps * 1.001).rounded()
        if abs(fps - ntsc * 1000 / 1001) < 0.0005 { return "\(Int(ntsc) * 1000)/1001" }
        return String(fps)
    }

    /// Refuses a size the encoder cannot take, before anything is written.
    package func check(width: Int, height: Int, path: String) throws {
        if container == .webp, max(width, height) > 16383 {
            throw OutputError.webPTooLarge(path: path, width: width, height: height)
        }
        // VP9 takes odd sizes (its chroma planes round up, as ours do); x264's 4:2:0 does not.
        guard container == .mp4 || container == .avif else { return }
        let codec = container == .avif ? .av1 : codec
        let name = codec.displayName
        if container.needsEvenSides, width % 2 != 0 || height % 2 != 0 {
            throw OutputError.oddVideoSize(path: path, codec: name, width: width, height: height)
        }
        let smallest = codec.smallestSize
        if width < smallest.width || height < smallest.height {
            throw OutputError.videoTooSmall(
                path: path, codec: name, width: width, height: height, smallestWidth: smallest.width,
                smallestHeight: smallest.height)
        }
    }

    /// GIF delays are whole hundredths of a second, and browsers slow delays under 2/100 s
    /// down to 10/100 s: above 50 fps a GIF keeps every `step`-th frame.
    static func gifFrameStep(fps: Double) -> Int {
        max(1, Int((fps / 50).rounded(.up)))
    }

    /// The delay, in 1/100 s, that ends a GIF of `frameCount` frames at `frameCount / fps`.
    ///
    /// The muxer places kept frame `k·step` at `round(100·k·step / fps)` and gives the last
    /// frame the delay before it: where delays alternate (3, 4, 3, … at 30 fps) that
    /// made a 1 s loop last 1.01 s and stutter at the seam. Never under 2, which
    /// browsers would slow to 10.
    static func gifFinalDelay(frameCount: Int, fps: Double) -> Int {
        let step = gifFrameStep(fps: fps)
        let lastKept = (frameCount - 1) / step * step
        func hundredths(_ frame: Int) -> Int { Int((Double(frame) * 100 / fps).rounded()) }
        return max(2, hundredths(frameCount) - hundredths(lastKept))
    }

    /// The transfer every Y′CbCr file is tagged with: sRGB's (H.273 code 13), which is what
    /// the frames are encoded with (DESIGN section 1). BT.709's camera curve (1) would be
    /// converted to the display by colour-managed players (Apple's maps it to
    /// `kCVImageBufferTransferFunction_ITU_R_709_2`, sRGB to `…_sRGB`); Chromium, Firefox and
    /// WebKitGTK here show 1 and 13 alike. ProRes's frame header has no code for sRGB, so a
    /// .mov says BT.709 there and in its container. Never unspecified (2): Chromium then
    /// takes the matrix as BT.601 and WebKit untagged video as BT.601.
    package var transfer: String { container == .mov ? "bt709" : "iec61966-2-1" }

    /// The colour tags of the file: the frames' primaries (``primaries``), ``transfer`` and
    /// ``matrix``.
    var colourTags: [String] {
        ["-color_primaries", primaries, "-color_trc", transfer, "-colorspace", matrix.ffmpegName]
    }

    /// ffmpeg's name of the frames' primaries: BT.709 (sRGB's), or SMPTE EG 432-1 for
    /// Display P3 (DCI-P3 primaries with D65 white; H.273 colour primaries 12).
    var primaries: String { colorSpace == .displayP3 ? "smpte432" : "bt709" }

    /// Threads for every encoder and filter, fixed: x264 and libvpx split their work by
    /// the thread count, which ffmpeg otherwise takes from the cores this process may run
    /// on, and zscale's slices follow the filter threads. Measured under `taskset`, 1 core
    /// against 2: x264, VP9 (opaque and with alpha) and a transparent AVIF's colour track
    /// gave other bytes, and the same with these pinned. x265 (one frame thread) and
    /// SVT-AV1 give the same bytes at any thread count.
    package static let threads = 4

    /// The global options that fix the filters' threads.
    static let filterThreadOptions = ["-filter_threads", String(threads), "-filter_complex_threads", String(threads)]

    /// The full ffmpeg command line after the executable.
    package func arguments(
        width: Int, height: Int, fps: Double, frameCount: Int, extraOptions: [String], output: String
    ) -> [String] {
        let rate = VideoEncoding.rateText(fps)
        let ownRateControl =
            VideoEncoding.firstOption(namedIn: VideoEncoding.rateControlOptions, of: extraOptions) == nil
        // No random container ids or timestamps: the same frames give the same file.
        return inputArguments(width: width, height: height, rate: rate)
            + encoderArguments(fps: fps, rate: rate, frameCount: frameCount, ownRateControl: ownRateControl)
            + ["-fflags", "+bitexact"] + extraOptions + [output]
    }

    /// ffmpeg's options for reading our raw frames from stdin, without audio.
    ///
    /// - Parameters:
    ///   - width: The frame width in pixels.
    ///   - height: The frame height in pixels.
    ///   - rate: The frame rate as ffmpeg reads it (``rateText(_:)``).
    /// - Returns: the options up to and including the input, `-an` and the encoders' threads.
    private func inputArguments(width: Int, height: Int, rate: String) -> [String] {
        // -xerror: ffmpeg 5.1 logs a failed write of the file's end (a full disk) and
        // still exits 0; with it, the error is an exit status.
        var arguments = [
            "-hide_banner", "-loglevel", "error", "-xerror", "-y",
            "-f", "rawvideo", "-pix_fmt", inputFormat.rawValue, "-s", "\(width)x\(height)", "-r", rate,
        ]
        if inputFormat.isYUV420 {
            // Our chroma is the mean of each 2×2 block: centred, not H.264's default left siting.
            arguments += ["-color_range", "tv", "-chroma_sample_location", "center"] + colourTags
        }
        // -threads is the first output option, so that an encoder's own -threads:v:N and the
        // user's options, which come later, still win.
        return arguments + VideoEncoding.filterThreadOptions + [
            "-i", "pipe:0", "-an", "-threads", String(VideoEncoding.threads),
        ]
    }

    /// The container's filter, encoder and muxer options.
    ///
    /// - Parameters:
    ///   - fps: The frame rate.
    ///   - rate: The frame rate as ffmpeg reads it (``rateText(_:)``).
    ///   - frameCount: The number of frames, which sets a GIF's final delay.
    ///   - ownRateControl: Whether to set the rate control, which the user's options did not.
    /// - Returns: the options between the input and the user's own.
    private func encoderArguments(fps: Double, rate: String, frameCount: Int, ownRateControl: Bool) -> [String] {
        switch container {
        case .mp4:
            return codec.mp4Arguments(ownRateControl: ownRateControl)
                + ["-color_range", "tv", "-chroma_sample_location", "center"]
                + colourTags + ["-movflags", "+faststart", "-f", "mp4"]
        case .mov:
            return [
                // swscale converts 16-bit RGB a few codes high (white at Y 943 of 940);
                // zscale (libzimg, in Debian's ffmpeg) is exact.
                "-vf", "zscale=matrix=709:range=limited,format=yuva444p10le", "-c:v", "prores_ks", "-profile:v",
                "4444",
                "-pix_fmt", "yuva444p10le", "-vendor", "apl0", "-color_range", "tv",
                // prores_ks leaves its own colour fields unset; this bitstream filter fills them.
                "-bsf:v", "prores_metadata=color_primaries=\(primaries):color_trc=bt709:colorspace=bt709",
            ] + colourTags + ["-movflags", "+write_colr", "-f", "mov"]
        case .webm:
            return webmArguments(ownRateControl: ownRateControl)
        case .webp, .apng, .avif:
            return animatedImageArguments()
        case .gif:
            return gifArguments(fps: fps, rate: rate, frameCount: frameCount)
        }
    }

    /// VP9 options: 10-bit 4:2:0 when opaque, 8-bit yuva420p with transparency.
    ///
    /// - Parameter ownRateControl: Whether to set the rate control, which the user's options did not.
    /// - Returns: the .webm's filter, encoder and muxer options.
    private func webmArguments(ownRateControl: Bool) -> [String] {
        // RGB input converted by ffmpeg: name the matrix, or swscale would use BT.601.
        let toYUV =
            "scale=out_color_matrix=\(matrix.ffmpegName):out_range=tv:flags=accurate_rnd+full_chroma_inp"
        let format =
            hasTransparency
            ? ["-vf", toYUV + ",format=yuva420p", "-pix_fmt", "yuva420p"]
            : ["-pix_fmt", "yuv420p10le", "-chroma_sample_location", "center"]
        return format + ["-c:v", "libvpx-vp9"] + (ownRateControl ? ["-crf", "30", "-b:v", "0"] : [])
            + ["-row-mt", "1", "-deadline", "good", "-cpu-used", "4", "-color_range", "tv"]
            + colourTags + ["-f", "webm"]
    }

    /// A GIF's palette filters, frame step and final delay.
    ///
    /// - Parameters:
    ///   - fps: The frame rate.
    ///   - rate: The frame rate as ffmpeg reads it (``rateText(_:)``).
    ///   - frameCount: The number of frames.
    /// - Returns: the .gif's filter and muxer options.
    private func gifArguments(fps: Double, rate: String, frameCount: Int) -> [String] {
        let palette =
            hasTransparency ? "palettegen=stats_mode=full:reserve_transparent=1" : "palettegen=stats_mode=full"
        let use =
            hasTransparency ? "paletteuse=dither=sierra2_4a:alpha_threshold=128" : "paletteuse=dither=sierra2_4a"
        let step = VideoEncoding.gifFrameStep(fps: fps)
        // Rounding up keeps frames 0, step, 2·step, …: to the nearest, one frame at
        // step 3 kept none, and ffmpeg failed.
        let keep = step == 1 ? "" : "fps=fps=\(rate)/\(step):round=up,"
        return [
            "-filter_complex", "[0:v]\(keep)split[a][b];[a]\(palette)[p];[b][p]\(use)", "-loop", "0",
            "-final_delay", String(VideoEncoding.gifFinalDelay(frameCount: frameCount, fps: fps)), "-f", "gif",
        ]
    }
}
