import Foundation
import Testing

/// A closed stderr (`2>&-`, as cron jobs and daemons run) or a full one (`2>/dev/full`)
/// loses the messages, and nothing else: every exit status is the documented one, and no
/// temporary file or child process is left behind.
@Suite(.serialized) struct ClosedStreamTests {
    static let streams: [ErrorStream] = [.closed, .file("/dev/full")]

    /// The processes (other than zombies) whose command line mentions `text`.
    static func processes(mentioning text: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: line, as: UTF8.self).contains(text), isRunning(pid)
            else { return nil }
            return pid
        }
    }

    @Test(arguments: streams)
    func aUsageErrorStillExitsTwo(stderr: ErrorStream) {
        let scratch = Scratch()
        let result = run(["render", "--size", "0x0", "-o", scratch.file("o.png")], stderr: stderr)
        #expect(result.status == 2)
        #expect(scratch.contents.isEmpty)
    }

    @Test(arguments: streams)
    func aRenderThatReportsItsStatisticsSucceeds(stderr: ErrorStream) {
        let scratch = Scratch()
        let result = run(["render", "--size", "64x36", "--stats", "-o", scratch.file("o.png")], stderr: stderr)
        #expect(result.status == 0)
        #expect(scratch.contents == ["o.png"])
        let reference = run(["render", "--size", "64x36", "-o", scratch.file("r.png")])
        #expect(reference.status == 0)
        let contents = { (name: String) in FileManager.default.contents(atPath: scratch.file(name)) }
        #expect(contents("o.png") == contents("r.png"))
    }

    /// A transparent `.mp4` has a note to print before ffmpeg has its frames: the video is
    /// still finished, and no ffmpeg is left writing a temporary file.
    @Test(arguments: streams)
    func aVideoWithANoteIsFinishedAndLeavesNothingBehind(stderr: ErrorStream) {
        let scratch = Scratch()
        let arguments = ["render", "--size", "64x36", "--background", "transparent", "--frames", "3"]
        let result = run(arguments + ["-o", scratch.file("t.mp4")], stderr: stderr)
        #expect(result.status == 0)
        #expect(scratch.contents == ["t.mp4"])
        #expect(probe(scratch.file("t.mp4"))["nb_read_frames"] == "3")
        #expect(Self.processes(mentioning: scratch.path).isEmpty)
    }

    /// The report on stdout is whole, and the status is a failed job's, 3.
    @Test(arguments: streams)
    func aFailingBatchKeepsItsReportAndItsStatus(stderr: ErrorStream) throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(
            scratch,
            manifest: """
                { "output": "out/{name}-{size}.{ext}", "sizes": ["32x18"], "formats": ["png"],
                  "palettes": [{ "name": "fine", "colors": ["red"] }, { "name": "lost", "palette": "missing.txt" }] }
                """)
        let result = run(["batch", manifest, "--json", "--jobs", "1"], stderr: stderr)
        #expect(result.status == 3)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let jobs = try #require(report["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["status"] as? String } == ["rendered", "failed"])
    }

    /// README's exit-status table, with nowhere to write a message.
    @Test(arguments: streams)
    func theExitStatusTableHoldsWithoutStderr(stderr: ErrorStream) throws {
        let scratch = Scratch()
        #expect(run(["render", "--size", "32x18", "-o", scratch.file("a.png")], stderr: stderr).status == 0)
        #expect(
            run(["render", "--size", "32x18", "--seed", "1", "-o", scratch.file("b.png")], stderr: stderr).status == 0)
        #expect(run(["compare", scratch.file("a.png"), scratch.file("a.png")], stderr: stderr).status == 0)
        #expect(run(["compare", scratch.file("a.png"), scratch.file("b.png")], stderr: stderr).status == 1)
        #expect(run(["render", "--colors", "blurple", "-o", scratch.file("c.png")], stderr: stderr).status == 2)
        #expect(run(["render", "--sise", "32x18", "-o", scratch.file("c.png")], stderr: stderr).status == 2)
        let unwritable = RunningCommand(["presets", "list"], stdoutPath: "/dev/full", stderr: stderr).wait()
        #expect(unwritable.status == 3)
        let long = RunningCommand(
            ["render", "--size", "64x36", "--frames", "100000", "-o", scratch.file("f-%06d.png")], stderr: stderr)
        let deadline = Date().addingTimeInterval(60)
        while !scratch.contents.contains("f-000001.png"), Date() < deadline { usleep(20_000) }
        long.signal(SIGTERM)
        #expect(long.wait().status == 130)
        #expect(!scratch.contents.contains { $0.hasPrefix(".") })
    }
}

extension ErrorStream: CustomTestStringConvertible {
    var testDescription: String {
        switch self {
        case .pipe: "a pipe"
        case .closed: "closed"
        case .file(let path): path
        }
    }
}
