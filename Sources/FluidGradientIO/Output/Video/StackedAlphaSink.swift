import FluidGradient

/// Turns each rendered frame into the stacked-alpha layout (``StackedAlpha``) and hands it
/// to another sink, such as a ``VideoSink`` made for its padded W×2P opaque frames: whatever that
/// sink's codec and pixel format, the frames reach it quantised once, from 16 bits.
package final class StackedAlphaSink: FrameSink, @unchecked Sendable {
    /// Frames are rendered at 16 bits with straight alpha, so the colour is premultiplied
    /// before it is quantised.
    package let pixelFormat = PixelFormat.rgba64le
    package let isOrderIndependent = false
    private let inner: FrameSink
    /// Written by one writer at a time: the sink is not order-independent.
    private var stacked: PixelBuffer
    private let dither: Bool
    private let threads: Int

    /// The ffmpeg output options that tag a file as stacked with halves of `height` rows,
    /// for ``VideoSink``'s extra options: the container's global `comment`, which the mp4
    /// muxer writes as `©cmt`.
    package static func ffmpegOptions(height: Int) -> [String] {
        ["-metadata", "comment=" + StackedAlpha.layoutComment(height: height)]
    }

    /// The height of the video a frame `height` rows high is stacked into: both halves, padded.
    package static func storedHeight(_ height: Int) -> Int { 2 * StackedAlpha.paddedHeight(height) }

    /// - Parameters:
    ///   - inner: the sink that takes the stacked frames, `width`×``storedHeight(_:)``.
    ///   - width: the rendered frame's width.
    ///   - height: the rendered frame's height.
    ///   - dither: whether 8-bit stacked frames are dithered.
    ///   - threads: threads that share each frame's packing.
    package init(wrapping inner: FrameSink, width: Int, height: Int, dither: Bool, threads: Int = 1) {
        self.inner = inner
        stacked = PixelBuffer(
            width: width, height: Self.storedHeight(height), format: inner.pixelFormat, matrix: inner.yuvMatrix)
        self.dither = dither
        self.threads = threads
    }

    package func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        StackedAlpha.pack(buffer, into: &stacked, dither: dither, frameIndex: frameIndex, threads: threads)
        try inner.write(stacked, frameIndex: frameIndex)
    }

    package func finish() throws { try inner.finish() }
    package func cancel() { inner.cancel() }
    package func abort() { inner.abort() }
    package var leftBehind: InterruptionError.LeftBehind { inner.leftBehind }
}
