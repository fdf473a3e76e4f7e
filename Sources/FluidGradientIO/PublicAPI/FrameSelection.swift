/// Which frames a render writes (`--frame-range` and `--time`). Frame `i` shows the instant
/// `i / fps`, and any frames render as they do within the whole run, so a range can be
/// split between tasks or machines.
public enum FrameSelection: Hashable, Sendable {
    /// Every frame of the preset's duration.
    case all
    /// The frames of `range`, counted from 0.
    case range(Range<Int>)
    /// One frame that shows the instant `time`, in seconds, dithered as the frame nearest
    /// it at the preset's frame rate.
    case instant(Double)
}
