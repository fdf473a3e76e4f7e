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
    ///   - shouldStop: polled between frames; true stops the encode.
    /// - Returns: the path of the file to send.
    /// - Throws: the library's ``PresetError``, ``VideoError`` or ``FileError``;
    ///   ``JobStopped`` when `shouldStop` said so.
    static func render(
        _ spec: JobSpec, in directory: String, progress: @escaping @Sendable (Int, Int) -> Void,
        shouldStop: @escaping @Sendable () -> Bool
    ) throws -> String {
        let output = directory + "/" + spec.fileName
        guard spec.format != .bundle else {
            throw JobProblem.unprocessable(
                slug: "unsupported-format", title: "Unsupported format",
                detail: "bundles need the library's public writeBundle")
        }
        try spec.preset.writeVideo(to: URL(fileURLWithPath: output))
        guard !shouldStop() else { throw JobStopped() }
        progress(spec.preset.frameCount, spec.preset.frameCount)
        return output
    }
}

/// A job's render ended because the job was cancelled.
struct JobStopped: Error {}
