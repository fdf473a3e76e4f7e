import FluidGradient
import Foundation

/// Frames piped as raw video into the `ffmpeg` binary, which encodes them into a
/// temporary file that is renamed into place once ffmpeg exits cleanly.
package final class VideoSink: FrameSink, @unchecked Sendable {
    package let pixelFormat: PixelFormat
    package let isOrderIndependent = false
    private let file: AtomicFile
    private let process: ChildProcess
    /// How the file is encoded, and so what it cannot keep (``VideoEncoding/notes(for:fps:extraOptions:)``).
    package let encoding: VideoEncoding
    package var yuvMatrix: YUVMatrix { encoding.matrix }

    /// `FLUIDGRADIENT_FFMPEG` names the binary; otherwise it is looked up on PATH.
    /// `need` is what needs it, for the error when it is missing.
    package static func locateFFmpeg(for need: VideoError.Need = .videoOutput) throws(VideoError) -> String {
        try ChildProcess.locate(
            "ffmpeg", environmentOverride: "FLUIDGRADIENT_FFMPEG", missing: .ffmpegNotFound(need: need))
    }

    /// `frameCount` is how many frames will be written: only a GIF uses it, for its last delay.
    /// `codec` is an `.mp4`'s (``VideoCodec/check(_:for:path:)`` refuses it for another container).
    /// `colorSpace` is the frames' space, whose primaries the file is tagged with.
    package init(
        path: String, container: VideoContainer, codec: VideoCodec = .h264, width: Int, height: Int, fps: Double,
        frameCount: Int, hasTransparency: Bool, colorSpace: ColorSpace = .srgb, matrix: YUVMatrix = .bt709,
        extraOptions: [String] = [], announce: ((String) -> Void)? = nil
    ) throws {
        let encoding = VideoEncoding(
            container: container, codec: codec, hasTransparency: hasTransparency, colorSpace: colorSpace,
            matrix: matrix)
        try encoding.check(width: width, height: height, path: path)
        try encoding.check(extraOptions: extraOptions)
        let ffmpeg = try VideoSink.locateFFmpeg()
        self.encoding = encoding
        pixelFormat = encoding.inputFormat
        file = try AtomicFile(destination: path)
        let arguments = encoding.arguments(
            width: width, height: height, fps: fps, frameCount: frameCount, extraOptions: extraOptions,
            output: file.temporaryPath)
        announce?(([ffmpeg] + arguments).map(VideoSink.shellQuoted).joined(separator: " "))
        do {
            process = try ChildProcess(executable: ffmpeg, arguments: arguments)
        } catch {
            file.discard()
            throw error
        }
    }

    /// `word` quoted for a POSIX shell where needed.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+,@%".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    package func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        let delivered = buffer.withUnsafeBytes { process.write($0) }
        guard delivered else {
            let status = process.finish()
            file.discard()
            throw failure(at: frameIndex, status: status)
        }
    }

    package func finish() throws {
        // An interrupt while ffmpeg encodes its last frames stops it too.
        guard let status = process.finish(unless: { Interruption.isRequested }) else {
            abort()
            throw InterruptionError(leftBehind: leftBehind)
        }
        guard status == 0 else {
            file.discard()
            throw failure(at: nil, status: status)
        }
        // A stand-in, or options that send the output elsewhere (-f null), can exit 0 having written nothing.
        guard file.writtenSize > 0 else {
            file.discard()
            throw VideoError.wroteNothing(path: file.destination)
        }
        do {
            try encoding.finishFile(atPath: file.temporaryPath, displayPath: file.destination)
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

    package func cancel() { process.signalKill() }

    package func abort() {
        process.kill()
        file.discard()
    }

    /// ffmpeg's failure, having stopped reading at `frame` or (nil) at the end, with `status`.
    private func failure(at frame: Int?, status: Int32) -> VideoError {
        .encoderFailed(
            path: file.destination, frame: frame, ending: .init(code: status), stderrTail: process.stderrTail)
    }
}
