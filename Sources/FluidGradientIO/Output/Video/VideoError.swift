import FluidGradient
import SystemPackage

/// A video that cannot be written: ffmpeg or ffprobe could not be found or started, or
/// did not finish the file.
///
/// ``description`` is the one-line message the command line prints.
public enum VideoError: FluidGradientError, Equatable {
    /// ffmpeg is neither named by `FLUIDGRADIENT_FFMPEG` nor on PATH, and `need` needs it.
    case ffmpegNotFound(need: Need)
    /// ffprobe is neither named by `FLUIDGRADIENT_FFPROBE` nor on PATH.
    case ffprobeNotFound
    /// The environment `variable` names `value`, which is not an executable file.
    case overrideNotExecutable(variable: String, value: String, program: String)
    /// A pipe to talk to `program` could not be created.
    case cannotCreatePipe(program: String, errno: Errno)
    /// `program` could not be started.
    case cannotStart(program: String, errno: Errno)
    /// ffmpeg ended while writing `path`: it stopped reading at `frame`, or (nil) failed at
    /// the end; `stderrTail` is the last lines it wrote to stderr.
    case encoderFailed(path: String, frame: Int?, ending: ProcessEnding, stderrTail: String)
    /// ffmpeg exited successfully but wrote nothing to `path`.
    case wroteNothing(path: String)
    /// The file ffmpeg wrote could not be read back to finish it.
    case cannotReadBack(path: String, detail: String)
    /// The `.container` file ffmpeg wrote could not be finished; `reason` says what is wrong in it.
    case cannotFinish(path: String, container: String, reason: String)
    /// ffmpeg could not write the poster image `path`.
    case posterFailed(path: String, ending: ProcessEnding, stderrTail: String)
    /// A video written for a bundle ended before `frame`, which the bundle measures.
    case endedEarly(path: String, frame: Int)

    /// What needs ffmpeg, in ``ffmpegNotFound(need:)``.
    public enum Need: Sendable, Equatable {
        /// Writing a video or an animated image.
        case videoOutput
        /// Writing a web bundle.
        case bundle
        /// Comparing videos or animated images.
        case comparingVideos
    }

    /// How a child process ended.
    public enum ProcessEnding: Sendable, Equatable {
        /// It exited with `status`.
        case exited(status: Int32)
        /// A signal killed it.
        case signalled(signal: Int32)
        /// Its exit could not be collected.
        case lost

        /// The shell's number for it: the status, or 128 + the signal; -1 when lost.
        var code: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            case .lost: -1
            }
        }
    }

    /// One line that says what failed and what to do.
    public var description: String {
        switch self {
        case .ffmpegNotFound(let need):
            "ffmpeg was not found on PATH, and \(need.phrase) needs it: install it (apt-get install ffmpeg) "
                + "or set FLUIDGRADIENT_FFMPEG to its path" + need.alternative
        case .ffprobeNotFound:
            "ffprobe was not found on PATH, and comparing videos needs it: install ffmpeg "
                + "(apt-get install ffmpeg, which includes it) or set FLUIDGRADIENT_FFPROBE to its path; "
                + "PNG frames compare without it"
        case .overrideNotExecutable(let variable, let value, let program):
            "\(variable) is set to \(value), which is not an executable file; point it at \(program), "
                + "or unset it to use \(program) from PATH"
        case .cannotCreatePipe(let program, let errno):
            "could not create a pipe for \(program): \(reason(errno))"
        case .cannotStart(let program, let errno):
            "could not start \(program): \(reason(errno))"
        case .encoderFailed(let path, let frame, let ending, let tail):
            "ffmpeg \(frame.map { "stopped reading frames at frame \($0)" } ?? "failed") while writing \(path) "
                + "(it \(ending.phrase))" + (tail.isEmpty ? "" : ": \(tail)")
        case .wroteNothing(let path):
            "ffmpeg exited successfully but wrote nothing to \(path); "
                + "check FLUIDGRADIENT_FFMPEG and any extra ffmpeg options"
        case .cannotReadBack(let path, let detail):
            "could not read back \(path) to finish it: \(detail)"
        case .cannotFinish(let path, let container, let reason):
            "ffmpeg wrote a .\(container) that could not be finished, as \(reason); \(path) was not written"
        case .posterFailed(let path, let ending, let tail):
            "ffmpeg could not write the poster \(path) (status \(ending.code)): \(tail)"
        case .endedEarly(let path, let frame):
            "\(path) ended before frame \(frame), which the bundle measures"
        }
    }

    /// False: ffmpeg missing or failing is no fault of the caller's input.
    public var isInputError: Bool { false }
}

extension VideoError.Need {
    fileprivate var phrase: String {
        switch self {
        case .videoOutput: "video output"
        case .bundle: "a bundle"
        case .comparingVideos: "comparing videos"
        }
    }

    fileprivate var alternative: String {
        switch self {
        case .videoOutput: "; PNG output works without it"
        case .bundle: ""
        case .comparingVideos: "; PNG frames compare without it"
        }
    }
}

extension VideoError.ProcessEnding {
    /// The ending of a child whose ``ChildProcess`` status is `code`.
    init(code: Int32) {
        self =
            code == ChildProcess.statusLost
            ? .lost : code > 128 ? .signalled(signal: code - 128) : .exited(status: code)
    }

    fileprivate var phrase: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        case .lost: "left no exit status to collect"
        }
    }
}
