import Foundation
import SystemPackage

/// A child process whose standard input we write and whose standard error we keep
/// the tail of. It runs in its own process group, so a Ctrl-C at the terminal
/// reaches only us and we decide how the child stops.
final class ChildProcess: @unchecked Sendable {
    let executable: String
    let pid: pid_t
    private var stdinDescriptor: Int32
    private let stderrReader: Thread
    private let tail = TailBuffer(limit: 4096)
    private let stderrDone = DispatchSemaphore(value: 0)
    /// Guards `isReaped` and `exitStatus`.
    private let reaping = NSLock()
    private var isReaped = false
    /// Where ``Interruption`` keeps the pid for a second interrupt, until it is reaped.
    private var cleanupSlot: Int32 = -1
    private var exitStatus: Int32?
    /// The status given for a child whose exit could not be collected.
    static let statusLost: Int32 = -1
    /// Held from creating a child's pipes to closing the child's ends of them.
    private static let spawning = NSLock()

    private(set) var outputDescriptor: Int32 = -1

    /// Starts `executable` with `arguments`. Its stdout goes to /dev/null, or, with
    /// `readsOutput`, to a pipe read by ``read(into:)``; its stdin is then /dev/null.
    init(executable: String, arguments: [String], readsOutput: Bool = false) throws {
        self.executable = executable
        var stdinPipe: [Int32] = [0, 0], stderrPipe: [Int32] = [0, 0], stdoutPipe: [Int32] = [-1, -1]
        // A batch starts several ffmpegs at once, and one that inherited another's pipe
        // would hold it open after that one died. So every end is close-on-exec (the
        // spawn's dup2 onto 0, 1 and 2 clears the flag where the child needs it), set
        // under a lock that every spawn takes, before another thread can spawn.
        ChildProcess.spawning.lock()
        defer { ChildProcess.spawning.unlock() }
        guard pipe(&stdinPipe) == 0, pipe(&stderrPipe) == 0, !readsOutput || pipe(&stdoutPipe) == 0 else {
            throw VideoError.cannotCreatePipe(program: executable, errno: .last)
        }
        for descriptor in stdinPipe + stderrPipe + stdoutPipe where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        enlargePipeBuffer(stdinPipe[1])

        let (status, child) = ChildProcess.spawn(
            executable, arguments: arguments, stdin: stdinPipe[0], stdout: readsOutput ? stdoutPipe[1] : nil,
            stderr: stderrPipe[1])
        close(stdinPipe[0])
        close(stderrPipe[1])
        if readsOutput {
            close(stdoutPipe[1])
            close(stdinPipe[1])
            stdinPipe[1] = -1
        }
        guard status == 0 else {
            if stdinPipe[1] >= 0 { close(stdinPipe[1]) }
            if readsOutput { close(stdoutPipe[0]) }
            close(stderrPipe[0])
            throw VideoError.cannotStart(program: executable, errno: Errno(rawValue: status))
        }
        pid = child
        cleanupSlot = Interruption.register(child: child)
        stdinDescriptor = stdinPipe[1]
        outputDescriptor = stdoutPipe[0]
        stderrReader = ChildProcess.readTail(of: stderrPipe[0], into: tail, signalling: stderrDone)
    }

    /// Spawns `executable` in a process group of its own, with the default handling of
    /// SIGPIPE, SIGINT and SIGTERM whatever this process does with them.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments, after its name.
    ///   - stdin: the read end of the pipe that becomes its stdin, used unless `stdout` is given.
    ///   - stdout: the write end of the pipe that becomes its stdout; with it, stdin is /dev/null,
    ///     and without it, stdout is /dev/null.
    ///   - stderr: the write end of the pipe that becomes its stderr.
    /// - Returns: posix_spawn's status (0 once started) and the child's pid.
    private static func spawn(
        _ executable: String, arguments: [String], stdin: Int32, stdout: Int32?, stderr: Int32
    ) -> (status: Int32, pid: pid_t) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_addclose(&actions, stdout)
        } else {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawn_file_actions_addclose(&actions, stdin)
        posix_spawn_file_actions_addclose(&actions, stderr)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        return (status, child)
    }

    /// Starts a thread that keeps the tail of what `descriptor` gives until its end, then
    /// closes it and signals `done`.
    private static func readTail(of descriptor: Int32, into tail: TailBuffer, signalling done: DispatchSemaphore)
        -> Thread
    {
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 4096) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                tail.append(chunk[0..<count])
            }
            close(descriptor)
            done.signal()
        }
        reader.start()
        return reader
    }

    /// Writes all of `bytes` to the child's stdin. Returns false if the child closed
    /// its end (it exited or crashed); never raises SIGPIPE (we ignore it).
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        writeAll(stdinDescriptor, bytes) == 0
    }

    /// Fills `buffer` from the child's stdout. Returns false at the end of its output
    /// (or a read error) before the buffer is full.
    ///
    /// - Throws: ``InterruptionError`` when a stop is requested while it waits
    ///   (the child, in a process group of its own, is not stopped by a Ctrl-C).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        // Closed once the output ended: poll would skip it and wait on the interrupt alone.
        guard outputDescriptor >= 0 else { return false }
        var offset = 0
        while offset < buffer.count {
            try Interruption.wait(for: outputDescriptor, events: Int16(POLLIN))
            let count = Glibc.read(outputDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Closes stdin (end of input) and waits for the child to exit.
    func finish() -> Int32 {
        finish(unless: { false })!
    }

    /// ``finish()``, or nil if `stop` answers true first (the child is then still
    /// running: ``kill()`` it).
    func finish(unless stop: () -> Bool) -> Int32? {
        closeInput()
        return wait(unless: stop)
    }

    /// Stops the child at once (SIGKILL), then waits. Only for output that is thrown
    /// away: asked politely, an encoder first drains the frames it holds (seconds at 4K).
    func kill() {
        signalKill()
        closeInput()
        _ = wait()
    }

    /// Sends SIGKILL and returns: a write blocked on the child's full pipe then fails
    /// (EPIPE), while the descriptors stay open until ``kill()`` (closing one that another
    /// thread is writing to would let its number be reused under that write).
    func signalKill() {
        // Its process group (it leads its own): a wrapper script's children go too.
        reaping.withLock { if !isReaped { _ = Glibc.kill(-pid, SIGKILL) } }
    }

    private func closeInput() {
        if stdinDescriptor >= 0 {
            close(stdinDescriptor)
            stdinDescriptor = -1
        }
        if outputDescriptor >= 0 {
            close(outputDescriptor)
            outputDescriptor = -1
        }
    }

    /// The exit status (or 128 + signal) once it ended, or nil if `stop` answers true first.
    ///
    /// It polls every 20 ms rather than blocking, so `stop` can be heard. The child is
    /// reaped under the lock ``signalKill()`` takes, and only after ``Interruption`` has
    /// forgotten it, so no SIGKILL reaches a process that has taken over its pid.
    private func wait(unless stop: () -> Bool = { false }) -> Int32? {
        if let status = reaping.withLock({ exitStatus }) { return status }
        while true {
            // Has it ended? Asked without reaping it, so that the pid stays its own meanwhile.
            var info = siginfo_t()
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == 0 && info.si_signo == SIGCHLD || result < 0 && errno != EINTR { break }
            if stop() { return nil }
            usleep(20_000)
        }
        var status: Int32 = 0
        let reaped = reaping.withLock {
            Interruption.unregister(childSlot: cleanupSlot)
            var outcome: pid_t
            repeat { outcome = waitpid(pid, &status, 0) } while outcome < 0 && errno == EINTR
            isReaped = true
            return outcome == pid
        }
        stderrDone.wait()
        // A status lost (something else reaped it) is never reported as success.
        let code: Int32 =
            !reaped ? ChildProcess.statusLost : (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        reaping.withLock { exitStatus = code }
        return code
    }

    /// The last lines the child wrote to stderr, joined into one line.
    var stderrTail: String {
        let text = String(decoding: tail.bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        return lines.suffix(3).joined(separator: " / ")
    }

    /// The program the `environmentOverride` variable names, or else `name` on PATH;
    /// `missing` is the error when PATH has none.
    static func locate(_ name: String, environmentOverride: String, missing: VideoError) throws(VideoError) -> String {
        let environment = ProcessInfo.processInfo.environment
        func isExecutableFile(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && access(path, X_OK) == 0
        }
        if let override = environment[environmentOverride], !override.isEmpty {
            guard isExecutableFile(override) else {
                throw .overrideNotExecutable(variable: environmentOverride, value: override, program: name)
            }
            return override
        }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        throw missing
    }
}

/// The last `limit` bytes written to it, shared between threads.
final class TailBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func append(_ bytes: ArraySlice<UInt8>) {
        lock.lock()
        storage.append(contentsOf: bytes)
        if storage.count > limit { storage.removeFirst(storage.count - limit) }
        lock.unlock()
    }

    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
