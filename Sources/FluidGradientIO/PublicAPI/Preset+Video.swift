import FluidGradient
import Foundation

extension Preset {
    /// Renders the whole animation into a video or animated image file through the
    /// `ffmpeg` binary: the frames of ``frames(in:width:height:depth:dither:threads:)``,
    /// encoded as `fluidgradient render -o` encodes them with the same `--encode-size`.
    ///
    /// The file's name picks the format: `.mp4` (H.264), `.mov` (ProRes 4444 with alpha),
    /// `.webm` (VP9), `.gif`, and the animated images `.webp`, `.apng` and `.avif`. The
    /// file appears under its name only when it is complete; on an error or a stop nothing
    /// is left. `FLUIDGRADIENT_FFMPEG` names the ffmpeg binary; otherwise it is looked up
    /// on `PATH`.
    ///
    /// - Parameters:
    ///   - url: The file URL to write.
    ///   - width: The video's display width in pixels; the preset's ``width`` when left out.
    ///   - height: The video's display height in pixels; the preset's ``height`` when left out.
    ///   - encodeSize: The size the frames are encoded at, for players to scale to the
    ///     display size: the display size itself (the default), or `auto`, the smallest the
    ///     blur allows, as `render` chooses for every container but `.mov`.
    ///   - dither: Whether 8-bit frames are dithered (the default).
    ///   - threads: How many threads share each frame; the pixels do not depend on it.
    ///   - progress: Called after each frame is handed to ffmpeg, from another thread,
    ///     with the frames done so far (1, 2, … up to `total`) and `total`.
    ///   - shouldStop: Asked before each frame and while waiting for ffmpeg; true stops
    ///     the encode and removes what it wrote.
    /// - Throws: ``VideoError/stopped(path:)`` when `shouldStop` answered true;
    ///   ``PresetError`` when the preset or the size is out of bounds; ``VideoError`` when
    ///   the URL is not a video file's or ffmpeg is missing or fails; ``FileError`` when the
    ///   file cannot be written; an error describing an encode size the file cannot take.
    public func writeVideo(
        to url: URL, width: Int? = nil, height: Int? = nil, encodeSize: EncodeSizeRequest = .full,
        dither: Bool = true, threads: Int = 1, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws {
        let display = try checked(width: width, height: height, times: [0, Double(frameCount - 1) / fps])
        guard url.isFileURL, case .video(let path, let container) = try? OutputTarget(parsing: url.path) else {
            throw VideoError.notAVideo(url: url.isFileURL ? url.path : url.absoluteString)
        }
        var sized = display.rendered(at: try encodeSize.resolve(for: display, container: container, path: path))
        sized.colorSpace = container.colorSpace(for: sized.colorSpace)
        let frames = 0...(sized.frameCount - 1)
        try Self.stoppable(path) {
            let video = try VideoSink(
                path: path, container: container, width: sized.width, height: sized.height, fps: sized.fps,
                frameCount: frames.count, hasTransparency: sized.frameSpec.hasTransparency,
                colorSpace: sized.colorSpace)
            try FramePipeline.run(
                RenderPlan(preset: sized, frames: frames, dither: dither, threads: threads), into: video,
                progress: progress.map { CallbackProgress(total: frames.count, report: $0) }, shouldStop: shouldStop)
        }
    }

    /// Writes the loop as a web bundle, as `fluidgradient render --bundle DIR` does: AV1,
    /// HEVC, VP9 and H.264 loops (stacked alpha with its player when the background is
    /// transparent), AVIF, WebP and JPEG or PNG posters, `index.html` and `manifest.json`.
    ///
    /// The directory appears, or replaces an earlier bundle, only when the bundle is
    /// complete; on an error or a stop nothing is left.
    ///
    /// - Parameters:
    ///   - url: The directory's file URL.
    ///   - width: The display width in pixels; the preset's ``width`` when left out.
    ///   - height: The display height in pixels; the preset's ``height`` when left out.
    ///   - encodeSize: The size the loops are encoded at: `auto` (the default), as `render
    ///     --bundle` chooses; the posters are at the display size.
    ///   - dither: Whether 8-bit frames are dithered (the default).
    ///   - threads: How many threads share each display-size frame.
    ///   - progress: Called after each frame is handed to an encoder, from other threads,
    ///     with the frames done so far over every file (1, 2, … up to `total`) and `total`.
    ///     The files are measured after the last frame.
    ///   - shouldStop: Asked before each frame and between the bundle's steps; true stops
    ///     every encode and removes what they wrote.
    /// - Throws: ``VideoError/stopped(path:)`` when `shouldStop` answered true;
    ///   ``PresetError`` when the preset or the size is out of bounds; ``VideoError`` when
    ///   ffmpeg is missing or fails; ``FileError`` when the URL is not a file URL or the
    ///   directory cannot be written; an error describing an encode size the loop cannot take.
    public func writeBundle(
        to url: URL, width: Int? = nil, height: Int? = nil, encodeSize: EncodeSizeRequest = .auto,
        dither: Bool = true, threads: Int = 1, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws {
        guard url.isFileURL else { throw FileError.notAFileURL(url: url.absoluteString, what: "bundle") }
        let display = try checked(width: width, height: height, times: [0, Double(frameCount - 1) / fps])
        let path = url.path
        let size = try encodeSize.resolve(for: display, container: .mp4, path: path)
        try Self.stoppable(path) {
            _ = try BundleWriter.write(
                BundleRequest(
                    preset: display, directory: path, encodeSize: size, dither: dither, threads: threads,
                    progress: progress, shouldStop: shouldStop))
        }
    }

    /// Runs `work`, which a stop ends with an ``InterruptionError``, turning that into the
    /// public ``VideoError/stopped(path:)`` for `path`.
    private static func stoppable(_ path: String, _ work: () throws -> Void) throws {
        do {
            try work()
        } catch is InterruptionError {
            throw VideoError.stopped(path: path)
        }
    }
}
