import FluidGradient

/// Work that stopped before it was complete, with what it left behind: its task was
/// cancelled, or the command was interrupted (SIGINT or SIGTERM, or the terminal closing).
///
/// ``description`` is the one-line message the command line prints.
public struct InterruptionError: FluidGradientError, Equatable {
    /// What an interrupted piece of work leaves behind.
    public enum LeftBehind: Sendable, Equatable {
        /// Nothing worth naming: the work held no output of its own.
        case nothing
        /// The output was being written under a temporary name, now removed.
        case partialOutputRemoved
        /// Each frame file written so far is complete and stays.
        case completeFramesKept
        /// Standard output got `frames` whole frames, and part of one more if `partial`.
        case standardOutput(frames: Int, partial: Bool)
        /// The batch's completed outputs stay; running it again finishes it.
        case batchOutputsKept
    }

    /// What the work left behind.
    public var leftBehind: LeftBehind

    /// An interruption that left `leftBehind`.
    ///
    /// - Parameter leftBehind: what the interrupted work left behind.
    package init(leftBehind: LeftBehind = .nothing) {
        self.leftBehind = leftBehind
    }

    /// False: a stop is neither the caller's input nor a failure; the command exits with
    /// status 130 for it.
    public var isInputError: Bool { false }

    /// "interrupted", then what was left behind.
    public var description: String {
        switch leftBehind {
        case .nothing: "interrupted"
        case .partialOutputRemoved: "interrupted; partial output removed"
        case .completeFramesKept: "interrupted; every frame written so far is complete and kept"
        case .standardOutput(let frames, let partial):
            "interrupted; standard output got \(counted(frames, "complete frame"))"
                + (partial ? " and part of the \(frames == 0 ? "first" : "next")" : "")
        case .batchOutputsKept: "interrupted; completed outputs are kept; run the batch again to finish it"
        }
    }
}
