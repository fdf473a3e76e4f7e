import Foundation

/// A one-line progress display on a terminal's stderr: frames, fps and time left.
package final class TerminalProgress: ProgressReporting, @unchecked Sendable {
    private let lock = NSLock()
    private var lastPrint = 0.0
    private var printed = false
    private let label: String

    package init(label: String) {
        self.label = label
    }

    /// A reporter if stderr is a terminal and output is not quiet.
    package static func ifTerminal(quiet: Bool, label: String) -> TerminalProgress? {
        (!quiet && isatty(2) != 0) ? TerminalProgress(label: label) : nil
    }

    package func update(done: Int, total: Int, elapsed: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard done == total || elapsed - lastPrint >= 0.1 else { return }
        lastPrint = elapsed
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let remaining = fps > 0 ? Double(total - done) / fps : 0
        let line = String(
            format: "\r%@ frame %d/%d  %.1f fps  ETA %@\u{1B}[K", label, done, total, fps,
            TerminalProgress.duration(remaining))
        StandardStreams.writeError(line)
        printed = true
    }

    package func finish() {
        lock.lock()
        defer { lock.unlock() }
        if printed { StandardStreams.writeError("\n") }
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return whole < 3600
            ? String(format: "%d:%02d", whole / 60, whole % 60)
            : String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }
}
