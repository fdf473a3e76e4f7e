import FluidGradient

extension Preset {
    /// Renders the animation into `output`: one PNG, numbered PNGs, a video or animated
    /// image through the `ffmpeg` binary, raw frames on standard output, or a web bundle.
    /// This is what `fluidgradient render` and `batch` do, with the same bytes.
    ///
    /// Everything is checked before anything is written, and every file appears under its
    /// name only when it is complete: on an error or a cancellation nothing is left, but
    /// for the complete files of a PNG sequence. Cancelling the task stops the work
    /// between frames (and any ffmpeg it started); the render then throws
    /// ``RenderError/interrupted(_:)``. The work runs on threads of its own, never on the
    /// caller's executor. `FLUIDGRADIENT_FFMPEG` names the ffmpeg binary; otherwise it is
    /// looked up on `PATH`.
    ///
    /// ```swift
    /// let (events, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
    /// async let written = preset.write(to: .bundle(directory: "web/hero"), events: continuation)
    /// for await case .progress(let progress) in events {
    ///     print(progress)  // encoding AV1 40%, HEVC 55%, VP9 70%, H.264 90%, posters 3/3
    /// }
    /// let summary = try await written
    /// ```
    ///
    /// - Parameters:
    ///   - output: What to write, and where.
    ///   - frames: The frames to write: every frame of the preset's duration (the default),
    ///     a range of them, or one instant. A single PNG holds one frame: the instant, the
    ///     first of the range, or frame 0. A bundle always holds the whole loop.
    ///   - width: The display width in pixels; the preset's `width` when left out.
    ///   - height: The display height in pixels; the preset's `height` when left out.
    ///   - encodeSize: The size a video or a bundle's loops are encoded at, for players to
    ///     scale to the display size; left out, `auto` (the smallest the blur allows) for
    ///     every video but `.mov`, whose ProRes master keeps the display size.
    ///   - alpha: What happens to transparency: kept where the output can (`auto`), an
    ///     output that cannot keep it refused (`keep`), or an `.mp4` in the stacked layout
    ///     for the web player (`stacked`). A bundle chooses for itself.
    ///   - dither: Whether 8-bit frames are dithered (the default); 16-bit and 10-bit
    ///     frames never are.
    ///   - threads: How many threads share each frame; the bytes do not depend on it.
    ///   - ffmpegOptions: Extra ffmpeg output options for a video, after the library's own,
    ///     so that they win (`["-crf", "23"]`).
    ///   - events: Hears the notes, the ffmpeg commands and the progress, in order, and is
    ///     finished when the work ends.
    /// - Returns: The size rendered at, the frames written, and a bundle's loops.
    /// - Throws: ``RenderError``: ``RenderError/preset(_:)`` when the preset, the size or an
    ///   instant is out of bounds; ``RenderError/output(_:)`` when the options do not fit
    ///   the output; ``RenderError/file(_:)`` for a path that cannot be written;
    ///   ``RenderError/video(_:)`` when ffmpeg is missing or fails; ``RenderError/png(_:)``
    ///   when libpng fails; ``RenderError/interrupted(_:)`` when the task was cancelled.
    @discardableResult
    public func write(
        to output: Output, frames: FrameSelection = .all, width: Int? = nil, height: Int? = nil,
        encodeSize: EncodeSizeRequest? = nil, alpha: AlphaMode = .auto, dither: Bool = true, threads: Int = 1,
        ffmpegOptions: [String] = [], events: AsyncStream<RenderEvent>.Continuation? = nil
    ) async throws(RenderError) -> RenderSummary {
        var request = WriteRequest(preset: self, output: output)
        (request.frames, request.width, request.height, request.encodeSize) = (frames, width, height, encodeSize)
        (request.alpha, request.dither, request.threads, request.ffmpegOptions) = (
            alpha, dither, threads, ffmpegOptions
        )
        return try await OutputWriter.run(request, events: events)
    }
}
