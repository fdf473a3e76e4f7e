import FluidGradient
import Foundation

extension Preset {
    /// Renders the frame that shows `time` as a WebP image's bytes, encoded through the
    /// `ffmpeg` binary as `render --bundle` encodes its `poster.webp` (lossy, quality 90):
    /// at time 0 and the preset's size, the bytes are the poster's.
    ///
    /// - Parameters:
    ///   - time: The instant, in seconds: 0 to 86400.
    ///   - width: The image's width in pixels, at most 16383; the preset's `width` when
    ///     left out.
    ///   - height: The image's height in pixels, at most 16383; the preset's `height`
    ///     when left out.
    ///   - keepingLook: Whether a frame of another size than the preset's shows the preset
    ///     as it looks at that size, as its own frame scaled there would: the point scale
    ///     multiplied by `min(width, height) / min(preset width, preset height)`, so that σ
    ///     scales with the shorter side, as a video's encode size renders it. The preset is
    ///     then checked at its own size, and the multiplied point scale may fall outside
    ///     0.25...8. When false (the default), the point scale is the preset's at any size.
    ///     At the preset's own size both give the same bytes.
    ///   - dither: Whether the 8-bit samples are dithered (the default).
    ///   - threads: How many threads share the render; the bytes do not depend on it.
    /// - Returns: The WebP file's bytes.
    /// - Throws: ``RenderError/preset(_:)`` when the preset, the size or the time is out of
    ///   bounds; ``RenderError/output(_:)`` for a size WebP cannot hold;
    ///   ``RenderError/video(_:)`` when ffmpeg is missing or fails; ``RenderError/file(_:)``
    ///   when the temporary file cannot be written or read.
    public func webpData(
        at time: Double, width: Int? = nil, height: Int? = nil, keepingLook: Bool = false, dither: Bool = true,
        threads: Int = 1
    ) throws(RenderError) -> Data {
        try stillData(
            .webp, at: time, width: width, height: height, keepingLook: keepingLook, dither: dither, threads: threads)
    }

    /// Renders the frame that shows `time` as an AVIF image's bytes, encoded through the
    /// `ffmpeg` binary as `render --bundle` encodes its `poster.avif` (AV1 at 10 bits, with
    /// an alpha plane when the background lets the blobs show over nothing): at time 0 and
    /// the preset's size, the bytes are the poster's.
    ///
    /// - Parameters:
    ///   - time: The instant, in seconds: 0 to 86400.
    ///   - width: The image's width in pixels, even and at least 64; the preset's
    ///     `width` when left out.
    ///   - height: The image's height in pixels, even and at least 64; the preset's
    ///     `height` when left out.
    ///   - keepingLook: Whether a frame of another size than the preset's shows the preset
    ///     as it looks at that size, as its own frame scaled there would: the point scale
    ///     multiplied by `min(width, height) / min(preset width, preset height)`, so that σ
    ///     scales with the shorter side, as a video's encode size renders it. The preset is
    ///     then checked at its own size, and the multiplied point scale may fall outside
    ///     0.25...8. When false (the default), the point scale is the preset's at any size.
    ///     At the preset's own size both give the same bytes.
    ///   - threads: How many threads share the render; the bytes do not depend on it.
    /// - Returns: The AVIF file's bytes.
    /// - Throws: ``RenderError/preset(_:)`` when the preset, the size or the time is out of
    ///   bounds; ``RenderError/output(_:)`` for a size AV1 cannot take;
    ///   ``RenderError/video(_:)`` when ffmpeg is missing or fails; ``RenderError/file(_:)``
    ///   when the temporary file cannot be written or read.
    public func avifData(
        at time: Double, width: Int? = nil, height: Int? = nil, keepingLook: Bool = false, threads: Int = 1
    ) throws(RenderError) -> Data {
        try stillData(
            .avif, at: time, width: width, height: height, keepingLook: keepingLook, dither: true, threads: threads)
    }

    /// The still at `time` encoded in `container` by the bundle's poster encode, through a
    /// private temporary directory that is removed before this returns.
    private func stillData(
        _ container: VideoContainer, at time: Double, width: Int?, height: Int?, keepingLook: Bool, dither: Bool,
        threads: Int
    ) throws(RenderError) -> Data {
        do {
            return try encodedStill(
                container, at: time, width: width, height: height, keepingLook: keepingLook, dither: dither,
                threads: threads)
        } catch {
            throw RenderError(error, path: "still." + container.rawValue)
        }
    }

    private func encodedStill(
        _ container: VideoContainer, at time: Double, width: Int?, height: Int?, keepingLook: Bool, dither: Bool,
        threads: Int
    ) throws -> Data {
        let sized = try checked(width: width, height: height, times: [time], keepingLook: keepingLook)
        let directory = try PrivateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/still." + container.rawValue
        let sink = try BundleOutput(file: path, kind: .poster(container)).sink(
            path: path, width: sized.width, height: sized.height, fps: sized.fps, frames: 1,
            transparent: sized.frameSpec.hasTransparency, dither: dither, colorSpace: sized.colorSpace, announce: nil)
        try FramePipeline.run(
            RenderPlan(preset: sized, frames: 0...0, time: time, dither: dither, threads: threads), into: sink)
        return try Data(readFile(path, what: "image"))
    }
}

/// A directory only this user can enter (mode 0700), under the system's temporary directory.
struct PrivateDirectory {
    let path: String

    /// Creates the directory.
    ///
    /// - Throws: ``FileError`` when it cannot be created.
    init() throws {
        var template = Array((NSTemporaryDirectory() + "fluidgradient-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw FileError.cannotCreate(path: NSTemporaryDirectory(), linkTarget: nil, errno: .last)
        }
        path = String(cString: made)
    }

    /// Removes the directory and everything in it.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
