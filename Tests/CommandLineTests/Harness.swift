import Foundation
import Testing

/// Runs the built `fluidgradient` binary, as a user would.
struct CommandResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The peak memory the command reported of itself with `--stats`, in MiB.
    ///
    /// The child's own figure (VmHWM) is the one to trust: `wait4`'s `ru_maxrss` for a
    /// child started by `posix_spawn` includes the test process's own resident size at
    /// the spawn (Linux carries the old address space's high-water mark across `exec`),
    /// which hid every child's figure under the suite's 124 MB.
    var reportedPeakMiB: Double? {
        guard let range = stderr.range(of: "peak memory of this process ") else { return nil }
        return Double(stderr[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}

enum Binary {
    /// `fluidgradient` beside the test bundle (`swift build` puts both in `.build/<config>/`).
    static let path: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let binary = directory.appendingPathComponent("fluidgradient").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        return "fluidgradient"
    }()
}

/// Where a started binary's stderr goes.
enum ErrorStream {
    /// A pipe the harness reads (``CommandResult/stderr``).
    case pipe
    /// Descriptor 2 closed, as `2>&-` leaves it (cron jobs, daemons).
    case closed
    /// A file opened for writing, such as `/dev/full`, where every write fails with ENOSPC.
    case file(String)
}

/// A running `fluidgradient` process.
final class RunningCommand: @unchecked Sendable {
    let pid: pid_t
    private let stdoutReader: PipeReader
    private let stderrReader: PipeReader

    /// `fileSizeLimit` caps, in bytes, every file the process writes (`RLIMIT_FSIZE`, as
    /// `ulimit -f` does), so that writes fail as on a full disk. `launcher` is a command
    /// that execs the rest of the line, to start the binary in a state it inherits.
    /// `stdoutDescriptor`, when given, is the binary's stdout (a socket, say); else
    /// `stdoutPath`, else a pipe that is read. `stderr` says where stderr goes.
    init(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil, stdoutPath: String? = nil,
        stdoutDescriptor: Int32? = nil, fileSizeLimit: Int? = nil, launcher: [String] = [], stderr: ErrorStream = .pipe
    ) {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        pipe(&outPipe)
        pipe(&errPipe)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        }
        switch stderr {
        case .pipe: posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        case .closed: posix_spawn_file_actions_addclose(&actions, 2)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        // `env -C` changes directory and then execs the binary in the same process.
        var command = directory.map { ["/usr/bin/env", "-C", $0, Binary.path] } ?? [Binary.path]
        if let fileSizeLimit {
            command = ["/usr/bin/prlimit", "--fsize=\(fileSizeLimit)", "--"] + command
        }
        command = launcher + command
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        // As from an interactive shell, whatever ran the tests: a suite started in the
        // background of a script would hand down an ignored SIGINT, which the binary keeps.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let status = posix_spawn(&child, command[0], &actions, &attributes, argv, envp)
        precondition(status == 0, "could not start \(Binary.path): \(status)")
        posix_spawnattr_destroy(&attributes)
        posix_spawn_file_actions_destroy(&actions)
        for pointer in argv + envp { free(pointer) }
        close(outPipe[1])
        close(errPipe[1])
        pid = child
        stdoutReader = PipeReader(outPipe[0])
        stderrReader = PipeReader(errPipe[0])
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for the exit (killing the process after `timeout` seconds).
    func wait(timeout: Double = 120) -> CommandResult {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = wait4(pid, &status, WNOHANG, nil)
            if result == pid { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, nil)
                Issue.record("fluidgradient timed out after \(timeout) s")
                break
            }
            usleep(5_000)
        }
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return CommandResult(
            status: code, stdout: stdoutReader.finish(), stderr: String(decoding: stderrReader.finish(), as: UTF8.self))
    }
}

/// Drains a pipe on a background thread so the child never blocks on a full pipe.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 65536) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            close(descriptor)
            done.signal()
        }.start()
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}

func run(
    _ arguments: [String], environment: [String: String] = [:], directory: String? = nil, fileSizeLimit: Int? = nil,
    launcher: [String] = [], timeout: Double = 120, stderr: ErrorStream = .pipe
) -> CommandResult {
    RunningCommand(
        arguments, environment: environment, directory: directory, fileSizeLimit: fileSizeLimit, launcher: launcher,
        stderr: stderr
    ).wait(timeout: timeout)
}

/// A `launcher` that runs the binary as nobody when the tests run as root, who may
/// write anywhere; empty otherwise.
let unprivilegedLauncher =
    getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []

/// A test's own empty directory. All of a run's scratch directories lie in one directory
/// that is removed when the test process exits.
struct Scratch {
    let path: String

    init() {
        path = scratchRoot + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Every file and directory under the scratch directory, hidden ones included, sorted.
    var contents: [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }
}

/// An executable file holding `text`, to stand in for ffmpeg.
func script(_ text: String, named name: String, in scratch: Scratch) throws -> String {
    let path = scratch.file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
}

private let scratchRoot: String = {
    let root = NSTemporaryDirectory() + "fluidgradient-cli-\(getpid())"
    try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return root
}()

/// Runs `ffprobe` on a file and returns `key=value` pairs of its first video stream.
func probe(_ path: String, countFrames: Bool = true) -> [String: String] {
    let entries =
        "stream=codec_name,pix_fmt,nb_read_frames,color_space,color_transfer,color_primaries,color_range,"
        + "chroma_location,width,height,r_frame_rate:format=duration"
    let data = toolOutput(
        ["ffprobe", "-v", "error", "-select_streams", "v:0"] + (countFrames ? ["-count_frames"] : [])
            + [
                "-show_entries",
                entries,
                "-of", "default=noprint_wrappers=1", path,
            ])
    var values: [String: String] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
}

/// Decodes a video's frames to raw RGB24 with ffmpeg, converting with BT.709 limited range.
/// `bilinearChroma` upsamples 4:2:0 chroma bilinearly, as browsers' GPU decoders do, so
/// that a chroma row reaches only the luma rows beside it (swscale's default reaches two).
func decodeFrames(_ path: String, width: Int, height: Int, bilinearChroma: Bool = false) -> [[UInt8]] {
    let flags = (bilinearChroma ? "bilinear+" : "") + "accurate_rnd+full_chroma_int"
    let data = toolOutput(
        [
            "ffmpeg", "-v", "error", "-i", path,
            "-vf", "scale=in_color_matrix=bt709:in_range=tv:flags=\(flags),format=rgb24",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
    let frameBytes = width * height * 3
    return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map {
        [UInt8](data[$0..<($0 + frameBytes)])
    }
}

/// The standard output of a program found on PATH (its stderr discarded).
func toolOutput(_ arguments: [String]) -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try? process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}
