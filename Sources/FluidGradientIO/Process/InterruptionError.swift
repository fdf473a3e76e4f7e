/// Work stopped by SIGINT or SIGTERM (or the terminal closing), with what it left behind.
///
/// ``description`` is the one-line message the command line prints.
package struct InterruptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an interrupted piece of work leaves behind.
    package enum LeftBehind: Sendable, Equatable {
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
    package var leftBehind: LeftBehind

    /// An interruption that left `leftBehind`.
    ///
    /// - Parameter leftBehind: what the interrupted work left behind.
    package init(leftBehind: LeftBehind = .nothing) {
        self.leftBehind = leftBehind
    }

    /// "interrupted", then what was left behind.
    package var description: String {
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
