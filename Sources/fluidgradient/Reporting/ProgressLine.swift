import FluidGradient
import FluidGradientIO
import Foundation

/// A one-line progress display on a terminal's stderr, redrawn at most ten times a second:
/// frames, fps and time left for a render, or the phase and its steps for a bundle.
final class ProgressLine {
    private var lastPrint = -Double.infinity
    private var printed = false
    private var lastPhase: RenderProgress.Phase?
    private let label: String

    init(label: String) {
        self.label = label
    }

    /// A display if stderr is a terminal and output is not quiet.
    static func ifTerminal(quiet: Bool, label: String) -> ProgressLine? {
        (!quiet && isatty(2) != 0) ? ProgressLine(label: label) : nil
    }

    /// Shows `done` of `total` frames, `elapsed` seconds after the first began.
    func frames(done: Int, total: Int, elapsed: Double) {
        guard done == total || elapsed - lastPrint >= 0.1 else { return }
        lastPrint = elapsed
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let remaining = fps > 0 ? Double(total - done) / fps : 0
        draw(
            String(
                format: "%@ frame %d/%d  %.1f fps  ETA %@", label, done, total, fps,
                ProgressLine.duration(remaining)))
    }

    /// Shows a bundle's phase and its steps; a new phase is shown at once.
    func phases(_ progress: RenderProgress, elapsed: Double) {
        guard progress.phase != lastPhase || progress.fractionCompleted == 1 || elapsed - lastPrint >= 0.1 else {
            return
        }
        (lastPrint, lastPhase) = (elapsed, progress.phase)
        draw("\(label) \(progress)")
    }

    /// Ends the line, if anything was shown.
    func finish() {
        if printed { StandardStreams.writeError("\n") }
    }

    private func draw(_ text: String) {
        StandardStreams.writeError("\r" + text + "\u{1B}[K")
        printed = true
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 3600
            ? String(format: "%d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }
}
