import FluidGradientIO
import Foundation

/// The one place that calls the library to render a job's file, through its one road.
enum JobRenderer {
    /// Renders `spec` into `directory` and returns the finished file's path. Cancelling the
    /// task stops the render and removes what it wrote. The render and the zip run from
    /// the ``JobExecutor`` of `niceness`, so every thread and ffmpeg they start runs at it.
    ///
    /// - Parameters:
    ///   - spec: what to render.
    ///   - directory: the job's private directory, empty.
    ///   - niceness: the nice value to render at (0 to 19).
    ///   - progress: told how far the render has come, as the library reports it; a bundle
    ///     is zipped after the library's `packing` phase, as part of it.
    /// - Returns: the path of the file to send: the video, or the bundle's zip.
    /// - Throws: the library's ``RenderError`` (``RenderError/interrupted(_:)`` when the task
    ///   was cancelled); a zip error for a bundle past its limits.
    static func render(
        _ spec: JobSpec, in directory: String, niceness: Int32,
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) async throws -> String {
        let output = directory + "/" + spec.fileName
        let (events, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let following = Task {
            for await case .progress(let update) in events { progress(update) }
        }
        let target: Output
        switch spec.format {
        case .video(let container): target = .video(path: output, container: container)
        case .bundle: target = .bundle(directory: directory + "/bundle", encodesAtOnce: spec.plan?.encodesAtOnce)
        }
        return try await withTaskExecutorPreference(JobExecutor.shared(niceness: niceness)) {
            do {
                try await spec.preset.write(to: target, encodeSize: spec.encodeSize, events: continuation)
                await following.value
            } catch {
                await following.value
                throw error
            }
            guard case .bundle(let folder, _, _) = target else { return output }
            try ZipArchive.write(folder: folder, to: output)
            try FileManager.default.removeItem(atPath: folder)
            return output
        }
    }
}
