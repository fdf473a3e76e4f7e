import FluidGradient
import Foundation

extension Preset {
    /// Renders the whole animation into a video or animated image file through the
    /// `ffmpeg` binary: the frames of ``frames(in:width:height:depth:dither:threads:)``,
    /// encoded as `fluidgradient render -o` encodes them with `--encode-size full`.
    ///
    /// The file's name picks the format: `.mp4` (H.264), `.mov` (ProRes 4444 with alpha),
    /// `.webm` (VP9), `.gif`, and the animated images `.webp`, `.apng` and `.avif`. The
    /// file appears under its name only when it is complete; on an error nothing is left.
    /// `FLUIDGRADIENT_FFMPEG` names the ffmpeg binary; otherwise it is looked up on `PATH`.
    ///
    /// - Parameters:
    ///   - url: The file URL to write.
    ///   - width: The video's width in pixels; the preset's ``width`` when left out.
    ///   - height: The video's height in pixels; the preset's ``height`` when left out.
    ///   - dither: Whether 8-bit frames are dithered (the default).
    ///   - threads: How many threads share each frame; the pixels do not depend on it.
    /// - Throws: ``PresetError`` when the preset or the size is out of bounds;
    ///   ``VideoError`` when the URL is not a video file's or ffmpeg is missing or fails;
    ///   ``FileError`` when the file cannot be written.
    public func writeVideo(
        to url: URL, width: Int? = nil, height: Int? = nil, dither: Bool = true, threads: Int = 1
    ) throws {
        let sized = try checked(width: width, height: height, times: [0, Double(frameCount - 1) / fps])
        guard url.isFileURL, case .video(let path, let container) = try? OutputTarget(parsing: url.path) else {
            throw VideoError.notAVideo(url: url.isFileURL ? url.path : url.absoluteString)
        }
        let frames = 0...(sized.frameCount - 1)
        let video = try VideoSink(
            path: path, container: container, width: sized.width, height: sized.height, fps: sized.fps,
            frameCount: frames.count, hasTransparency: sized.frameSpec.hasTransparency)
        try FramePipeline.run(RenderPlan(preset: sized, frames: frames, dither: dither, threads: threads), into: video)
    }
}
