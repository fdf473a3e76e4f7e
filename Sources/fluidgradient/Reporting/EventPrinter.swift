import FluidGradient
import FluidGradientIO
import Foundation

/// What the command shows of a render's events on stderr: each note unless `--quiet`, each
/// ffmpeg command with `--verbose`, and a progress line on a terminal.
struct EventPrinter: Sendable {
    /// No notes and no progress line.
    var quiet: Bool
    /// Print the ffmpeg commands.
    var verbose: Bool
    /// Whether to show the progress line at all (not for raw frames on stdout).
    var showsProgress = true
    /// The progress line's label, from the size the frames are rendered at.
    var label: @Sendable (_ width: Int, _ height: Int) -> String

    /// Renders through `write`, showing its events as they come; returns when both the
    /// write and the showing are done, so that nothing shown follows a later line.
    ///
    /// - Parameter write: the render, given the events' continuation.
    /// - Returns: what `write` returns.
    /// - Throws: what `write` throws.
    func rendering(
        _ write: (AsyncStream<RenderEvent>.Continuation) async throws(RenderError) -> RenderSummary
    ) async throws(RenderError) -> RenderSummary {
        let (events, continuation) = AsyncStream.makeStream(of: RenderEvent.self)
        let showing = Task { await show(events) }
        do {
            let summary = try await write(continuation)
            await showing.value
            return summary
        } catch {
            continuation.finish()
            await showing.value
            throw error
        }
    }

    /// Shows `events` until they end.
    private func show(_ events: AsyncStream<RenderEvent>) async {
        var line: ProgressLine?
        var start = ContinuousClock.now
        func elapsed() -> Double {
            let duration = ContinuousClock.now - start
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        for await event in events {
            switch event {
            case .note(let note): if !quiet { printError("note: " + note) }
            case .ffmpegCommand(let command): if verbose { printWhole("ffmpeg command: " + command) }
            case .started(let width, let height, _):
                start = .now
                if showsProgress { line = ProgressLine.ifTerminal(quiet: quiet, label: label(width, height)) }
            case .progress(let progress):
                guard let line else { continue }
                if progress.phase == .encoding, progress.steps.count == 1, let step = progress.steps.first {
                    line.frames(done: step.done, total: step.total, elapsed: elapsed())
                } else {
                    line.phases(progress, elapsed: elapsed())
                }
            }
        }
        line?.finish()
    }
}
