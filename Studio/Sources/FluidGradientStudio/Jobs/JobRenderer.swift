import FluidGradient
import FluidGradientIO
import Foundation

/// The one place that calls the library to render a job's file. It blocks: it runs on the
/// job's own thread, never on an event loop.
enum JobRenderer {
    /// Renders `spec` into `directory` and returns the finished file's path.
    ///
    /// - Parameters:
    ///   - spec: what to render.
    ///   - directory: the job's private directory, empty.
    ///   - progress: told (frames done, frames in all) as frames are encoded.
    ///   - shouldStop: polled between frames; true stops the encode and removes its files.
    /// - Returns: the path of the file to send: the video, or the bundle's zip.
    /// - Throws: the library's ``PresetError``, ``VideoError`` (``VideoError/stopped(path:)``
    ///   when `shouldStop` said so) or ``FileError``; a zip error for a bundle past its limits.
    static func render(
        _ spec: JobSpec, in directory: String, progress: @escaping @Sendable (Int, Int) -> Void,
        shouldStop: @escaping @Sendable () -> Bool
    ) throws -> String {
        let output = directory + "/" + spec.fileName
        guard spec.format == .bundle else {
            try spec.preset.writeVideo(
                to: URL(fileURLWithPath: output), encodeSize: spec.encodeSize, progress: progress,
                shouldStop: shouldStop)
            return output
        }
        let folder = directory + "/bundle"
        try spec.preset.writeBundle(
            to: URL(fileURLWithPath: folder, isDirectory: true), encodeSize: spec.encodeSize,
            encodesAtOnce: spec.plan?.encodesAtOnce, progress: progress, shouldStop: shouldStop)
        try ZipArchive.write(folder: folder, to: output)
        try FileManager.default.removeItem(atPath: folder)
        return output
    }
}

/// A job's render did not start because the job was cancelled first.
struct JobStopped: Error {}

/// A job's render was stopped at its time limit.
struct JobTimedOut: Error {}
