import FluidGradient
import Foundation

/// The JPEG poster of an opaque loop, from its PNG: a tenth of the bytes, for a still that
/// every browser shows before the loop starts and instead of it under reduced motion.
enum JPEGPoster {
    /// Encodes `png` as the JPEG `jpeg` with ffmpeg, then removes `png`.
    ///
    /// Quality 3 of ffmpeg's 2 (best) to 31 keeps a blurred frame within a few levels;
    /// 4:2:0 chroma costs such a frame nothing visible. The JFIF conversion (BT.601, full
    /// range) is what every JPEG decoder undoes.
    ///
    /// A Display P3 poster gets the project's ICC profile in an APP2 segment, which
    /// ffmpeg's encoder does not write.
    ///
    /// - Throws: a failure quoting ffmpeg's stderr when it fails; nothing is left under
    ///   `jpeg` then.
    static func convert(_ png: String, to jpeg: String, colorSpace: ColorSpace = .srgb) throws {
        let ffmpeg = try VideoSink.locateFFmpeg(for: .bundle)
        let file = try AtomicFile(destination: jpeg, suggestedExtension: "jpg")
        let process = try ChildProcess(
            executable: ffmpeg,
            arguments: [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", png, "-frames:v", "1", "-c:v", "mjpeg",
                "-q:v", "3", "-pix_fmt", "yuvj420p", "-fflags", "+bitexact", "-f", "image2", file.temporaryPath,
            ])
        guard let status = process.finish(unless: { Interruption.isRequested }) else {
            process.kill()
            file.discard()
            throw InterruptionError()
        }
        guard status == 0, file.writtenSize > 0 else {
            file.discard()
            throw VideoError.posterFailed(path: jpeg, ending: .init(code: status), stderrTail: process.stderrTail)
        }
        if colorSpace == .displayP3 {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file.temporaryPath))).map { [UInt8]($0) }
            guard let bytes, let tagged = ImageColorTags.adding(ICCProfile.displayP3, toJPEG: bytes) else {
                file.discard()
                throw VideoError.posterFailed(path: jpeg, ending: .init(code: 0), stderrTail: "not a JPEG file")
            }
            try AtomicFile.overwrite(file.temporaryPath, with: tagged, destination: jpeg)
        }
        try file.commit()
        unlink(png)
    }
}
