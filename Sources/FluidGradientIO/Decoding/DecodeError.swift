import FluidGradient
import SystemPackage

/// Frames to compare that could not be found, read or decoded, or paired.
///
/// ``description`` is the one-line message the command line prints.
package enum DecodeError: FluidGradientError, Equatable {
    /// Nothing is at `path`.
    case missing(path: String)
    /// `path`, or the directory of a pattern, is longer than the system looks up.
    case pathTooLong(path: String)
    /// The directory of the frame pattern `path` does not exist.
    case missingPatternDirectory(path: String, directory: String)
    /// No file matches the frame pattern `path`.
    case noPatternMatches(path: String)
    /// The directory `path` holds no PNG files.
    case noPNGFiles(path: String)
    /// The frames at `path` have none named `frame`.
    case noSuchFrame(path: String, frame: String)
    /// A decoder (libwebp, libavif) refused `path` with `message`.
    case cannotDecode(path: String, message: String)
    /// ffmpeg could not decode the video at `path`; `stderrTail` is what it said last.
    case ffmpegCannotDecode(path: String, stderrTail: String)
    /// ffprobe finds no video at `path`.
    case notAVideo(path: String)
    /// ffprobe finds no video stream at `path`.
    case noVideoStream(path: String)
    /// ffprobe finds no frame delays in the animated PNG at `path`.
    case noFrameDelays(path: String)
    /// `path` was to be read as stacked alpha, but its frames have an odd height.
    case oddStackedHeight(path: String, width: Int, height: Int)
    /// The `frames` frames of `path` last from `shortest` to `longest` seconds (nil: they
    /// have no durations), so they have no fixed rate.
    case unevenFrames(path: String, frames: Int, shortest: Double?, longest: Double?)
    /// `path` holds `decoded` frames, not the `listed` its index lists.
    case fewerFrames(path: String, decoded: Int, listed: Int)
    /// The `--diff` directory could not be created.
    case cannotCreateDiffDirectory(directory: String, errno: Errno)
    /// The `--diff` directory cannot be written into.
    case diffDirectoryNotWritable(directory: String, errno: Errno)

    /// True: frames to compare are the caller's.
    package var isInputError: Bool { true }

    /// One line that says what could not be read and why.
    package var description: String {
        switch self {
        case .missing(let path): "cannot read \(path): no such file or directory"
        case .pathTooLong(let path): "cannot read \(path): \(pathTooLongReason)"
        case .missingPatternDirectory(let path, let directory):
            "cannot read \(path): the directory \(directory) does not exist"
        case .noPatternMatches(let path): "cannot read \(path): no files match the pattern"
        case .noPNGFiles(let path): "cannot read \(path): the directory holds no PNG files"
        case .noSuchFrame(let path, let frame): "\(path) has no frame \(frame)"
        case .cannotDecode(let path, let message): "cannot read \(path): \(message)"
        case .ffmpegCannotDecode(let path, let tail): "cannot read \(path): ffmpeg could not decode it (\(tail))"
        case .notAVideo(let path): "cannot read \(path): not a video ffprobe can read"
        case .noVideoStream(let path): "cannot read \(path): ffprobe finds no video stream in it"
        case .noFrameDelays(let path): "cannot read \(path): ffprobe finds no frame delays in it"
        case .oddStackedHeight(let path, let width, let height):
            "cannot read \(path) as stacked alpha: its frames are \(width)x\(height), and an odd height "
                + "cannot hold a colour half and an alpha half"
        default: pairingDescription
        }
    }

    private var pairingDescription: String {
        switch self {
        case .unevenFrames(let path, let frames, let shortest, let longest):
            "cannot pair the frames of \(path) with frames at a fixed rate: its \(frames) frames "
                + (shortest.flatMap { shortest in
                    longest.map { "last from \(milliseconds(shortest)) to \(milliseconds($0))" }
                } ?? "have no durations")
                + " (encoders merge identical frames into one longer one); give --fps, the rate it was rendered at"
        case .fewerFrames(let path, let decoded, let listed):
            "cannot read \(path): it holds \(decoded) frames, not the \(listed) its index lists"
        case .cannotCreateDiffDirectory(let directory, let errno):
            "cannot create the --diff directory \(directory): \(reason(errno)); "
                + "give --diff a directory path that can be created"
        case .diffDirectoryNotWritable(let directory, let errno):
            "cannot write into the --diff directory \(directory): \(reason(errno)); "
                + "give --diff a directory you can write to"
        default:
            preconditionFailure("every case has its description")
        }
    }
}

/// `seconds` in milliseconds to 0.01 ms: "41.67 ms".
private func milliseconds(_ seconds: Double) -> String {
    ParameterRange.format((seconds * 1e5).rounded() / 100) + " ms"
}
