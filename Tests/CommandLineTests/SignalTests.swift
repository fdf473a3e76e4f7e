import Foundation
import Testing

/// SIGINT and SIGTERM stop every command wherever it waits or works: in bench's loops,
/// and while reading a FIFO that no one writes. Each run exits 130 with the one-line
/// message and leaves nothing in its directory. Without the stop, each would wait or
/// work far longer than its deadline.
@Suite(.serialized) struct SignalTests {
    /// bench ran its frames to the end, whatever signal came.
    @Test(arguments: [SIGINT, SIGTERM])
    func benchStopsOnASignal(signal: Int32) {
        let scratch = Scratch()
        // --encode png writes a scratch file into TMPDIR on every frame.
        let command = RunningCommand(
            ["bench", "--size", "64x36", "--frames", "100000000", "--encode", "png"],
            environment: ["TMPDIR": scratch.path])
        waitForSignalHandlers(command.pid)
        usleep(200_000)
        command.signal(signal)
        let result = command.wait(timeout: 10)
        #expect(result.status == 130)
        #expect(result.stderr == "fluidgradient: interrupted\n")
        #expect(scratch.contents.isEmpty, "left \(scratch.contents)")
    }

    /// The accuracy check's reference render takes minutes at 1080p on a busy machine.
    @Test func benchStopsDuringItsAccuracyCheck() {
        let command = RunningCommand(["bench", "--size", "1920x1080", "--frames", "1", "--check-accuracy"])
        waitForSignalHandlers(command.pid)
        usleep(1_000_000)
        command.signal(SIGTERM)
        let result = command.wait(timeout: 10)
        #expect(result.status == 130)
        #expect(result.stderr == "fluidgradient: interrupted\n")
    }

    /// Commands that read a file the user named, given a FIFO that nobody writes to.
    /// `fifo` is the FIFO's name in the command's directory; `a.png` is a small PNG there.
    static let fifoReaders: [(arguments: [String], fifo: String)] = [
        (["palette", "in.png"], "in.png"),
        (["compare", "a.png", "in.png"], "in.png"),
        (["compare", "in.mp4", "in.mp4"], "in.mp4"),
        (["render", "--preset", "in.json", "-o", "out.png"], "in.json"),
        (["render", "--palette", "in.txt", "-o", "out.png"], "in.txt"),
        (["batch", "in.json"], "in.json"),
        (["batch", "batch.json"], "colors.txt"),
    ]

    @Test(arguments: fifoReaders)
    func readingAFIFOStopsOnCtrlC(arguments: [String], fifo: String) {
        let scratch = Scratch()
        #expect(run(["render", "--size", "32x18", "-o", scratch.file("a.png")]).status == 0)
        let manifest =
            #"{"palettes": [{"name": "p", "palette": "colors.txt"}], "sizes": ["32x18"], "formats": ["png"]}"#
        #expect(FileManager.default.createFile(atPath: scratch.file("batch.json"), contents: Data(manifest.utf8)))
        #expect(mkfifo(scratch.file(fifo), 0o600) == 0)
        let before = scratch.contents
        // Absolute paths, so that a child left running names the scratch directory.
        let command = RunningCommand(
            arguments.map { before.contains($0) ? scratch.file($0) : $0 }, directory: scratch.path)
        waitForSignalHandlers(command.pid)
        usleep(200_000)
        command.signal(SIGINT)
        let result = command.wait(timeout: 10)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("fluidgradient: interrupted"), "\(result.stderr)")
        #expect(scratch.contents == before)
        let left = processes(mentioning: scratch.path)
        #expect(left.isEmpty, "a child is left running")
        for pid in left { kill(pid, SIGKILL) }
    }
}

/// Waits (up to 10 s) until `pid` catches SIGINT, SIGTERM and SIGHUP: a signal sent
/// before then would end it by the default action, with no message to tell the two apart.
func waitForSignalHandlers(_ pid: pid_t) {
    let wanted: UInt64 = (1 << (SIGINT - 1)) | (1 << (SIGTERM - 1)) | (1 << (SIGHUP - 1))
    let deadline = Date() + 10
    while Date() < deadline {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let caught =
            status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
            .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
        if caught & wanted == wanted { return }
        usleep(10_000)
    }
    Issue.record("process \(pid) never installed its signal handlers")
}

/// The live processes whose command line mentions `text`.
func processes(mentioning text: String) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
        guard let pid = pid_t(entry), pid != getpid(), isRunning(pid),
            let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { return nil }
        return String(decoding: line, as: UTF8.self).contains(text) ? pid : nil
    }
}
