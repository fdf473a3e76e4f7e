import FluidGradient

/// The sink of a video or animated image, set up as `render -o` sets it up: the encode
/// size, the alpha check, ffmpeg started, the notes on what the file cannot keep, and the
/// stacked layout when asked.
struct VideoOutput {
    /// What takes the rendered frames.
    let sink: FrameSink
    /// The progress step's name: the codec's.
    let stepName: String

    /// Starts ffmpeg for `path`, and replaces `preset` by the preset at its encode size when
    /// that differs from its own.
    ///
    /// - Parameters:
    ///   - request: the write, for its encode size, alpha, dither, threads and ffmpeg options.
    ///   - path: the file to write.
    ///   - container: its container.
    ///   - codec: its codec, for an `.mp4`.
    ///   - frameCount: the frames that will be written.
    ///   - preset: the checked preset at the display size; at the encode size on return.
    ///   - hooks: hear the ffmpeg command and the notes.
    /// - Throws: ``OutputError`` for an encode size, alpha mode, size or option the file
    ///   cannot take; ``VideoError`` for an ffmpeg that is missing or does not start;
    ///   ``FileError`` for a path that cannot be written.
    init(
        _ request: WriteRequest, path: String, container: VideoContainer, codec: VideoCodec, frameCount: Int,
        preset: inout Preset, hooks: WriteHooks
    ) throws {
        let size = try (request.encodeSize ?? .standard(for: container)).resolve(
            for: preset, container: container, path: path)
        let encodeNote = size.note(for: preset, path: path)
        if encodeNote != nil { preset = preset.rendered(at: size) }
        // A GIF holds sRGB only: a Display P3 preset renders in sRGB for it.
        let spaceNote =
            container.colorSpace(for: preset.colorSpace) == preset.colorSpace
            ? nil : "a GIF carries no colour space, so \(path) is rendered in sRGB, its colours gamut mapped"
        preset.colorSpace = container.colorSpace(for: preset.colorSpace)
        let transparent = preset.frameSpec.hasTransparency
        try request.alpha.check(target: .video(path, container), hasTransparency: transparent, height: preset.height)
        let stacked = request.alpha == .stacked
        // The stacked layout's tag follows the caller's options, so that it wins.
        let extraOptions =
            request.ffmpegOptions + (stacked ? StackedAlphaSink.ffmpegOptions(height: preset.height) : [])
        let video = try VideoSink(
            path: path, container: container, codec: codec, width: preset.width,
            height: stacked ? StackedAlphaSink.storedHeight(preset.height) : preset.height, fps: preset.fps,
            frameCount: frameCount,
            hasTransparency: transparent && !stacked, colorSpace: preset.colorSpace, extraOptions: extraOptions,
            announce: { hooks.emit(.ffmpegCommand($0)) })
        let notes = video.encoding.notes(for: path, fps: preset.fps, extraOptions: extraOptions)
        for note in [encodeNote, spaceNote].compactMap({ $0 }) + notes { hooks.emit(.note(note)) }
        sink =
            stacked
            ? StackedAlphaSink(
                wrapping: video, width: preset.width, height: preset.height, dither: request.dither,
                threads: request.threads) : video
        stepName = container == .mp4 ? codec.displayName : container.codecName
    }
}
