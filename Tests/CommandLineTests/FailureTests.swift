import FluidGradientIO
import Foundation
import Testing

/// ffmpeg missing or failing, a full disk, awkward output paths and a closed pipe: a clear
/// one-line error, the documented exit status, and nothing half-written left under a final
/// name. Interruptions are ``InterruptedRenderTests``.
@Suite(.serialized) struct FailureTests {
    @Test func missingFFmpegIsAClearError() {
        let scratch = Scratch()
        let result = run(
            ["render", "--size", "320x180", "--duration", "1", "-o", scratch.file("a.mp4")],
            environment: ["PATH": "/nonexistent", "FLUIDGRADIENT_FFMPEG": ""])
        #expect(result.status == 3)
        #expect(result.stderr.contains("ffmpeg was not found on PATH"))
        #expect(result.stderr.contains("apt-get install ffmpeg"))
        #expect(scratch.contents.isEmpty)
        // PNG output works without it.
        let png = run(
            ["render", "--size", "32x18", "-o", scratch.file("a.png")], environment: ["PATH": "/nonexistent"])
        #expect(png.status == 0)
    }

    /// Comparing a video needs ffprobe as well; its absence names the variable that points at it.
    @Test func missingFFprobeNamesItsVariable() throws {
        let scratch = Scratch()
        #expect(run(["render", "--size", "64x36", "--frames", "2", "-o", scratch.file("clip.mp4")]).status == 0)
        let ffmpeg = try VideoSink.locateFFmpeg()
        let result = run(
            ["compare", scratch.file("clip.mp4"), scratch.file("clip.mp4")],
            environment: ["PATH": "/nonexistent", "FLUIDGRADIENT_FFMPEG": ffmpeg, "FLUIDGRADIENT_FFPROBE": ""])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("fluidgradient: ffprobe was not found on PATH, and comparing videos needs it"))
        #expect(result.stderr.contains("or set FLUIDGRADIENT_FFPROBE to its path"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    /// FLUIDGRADIENT_FFMPEG naming something that cannot run is reported as such, not as
    /// ffmpeg missing from PATH.
    @Test(arguments: ["/nonexistent/ffmpeg", "/etc/passwd", "/tmp"])
    func anUnusableFFmpegOverrideIsNamed(override: String) {
        let scratch = Scratch()
        let result = run(
            ["render", "--size", "64x36", "--frames", "2", "-o", scratch.file("a.mp4")],
            environment: ["FLUIDGRADIENT_FFMPEG": override])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "fluidgradient: FLUIDGRADIENT_FFMPEG is set to \(override), which is not an executable file; "
                + "point it at ffmpeg, or unset it to use ffmpeg from PATH\n"
        )
        #expect(scratch.contents.isEmpty)
    }

    @Test func ffmpegRejectingAnOptionIsQuoted() {
        let scratch = Scratch()
        let result = run([
            "render", "--size", "320x180", "--duration", "1", "--ffmpeg-options", "-crf abc", "-o",
            scratch.file("b.mp4"),
        ])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("fluidgradient: ffmpeg stopped reading frames"))
        #expect(result.stderr.contains("exited with status 1"))
        #expect(result.stderr.contains("Error setting option crf to value abc"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(scratch.contents.isEmpty)
    }

    /// A disk that fills up (here a file-size limit) stops the render with the system's
    /// reason, and leaves no temporary file behind: for a PNG sequence written on several
    /// threads, a single PNG, and a palette's preset file.
    @Test func aFullDiskLeavesNoTemporaryFiles() {
        let scratch = Scratch()
        let cases: [(arguments: [String], mentions: String)] = [
            (
                ["render", "--size", "320x180", "--frames", "8", "--threads", "4", "-o", scratch.file("s/%03d.png")],
                "could not write \(scratch.file("s/"))"
            ),
            (
                ["render", "--size", "320x180", "-o", scratch.file("still.png")],
                "could not write \(scratch.file("still.png")): File too large"
            ),
        ]
        try! FileManager.default.createDirectory(atPath: scratch.file("s"), withIntermediateDirectories: false)
        for (arguments, mentions) in cases {
            let result = run(arguments, fileSizeLimit: 2000)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(mentions), "\(result.stderr)")
            #expect(
                result.stderr.hasSuffix("File too large; raise the file-size limit (ulimit -f) or write elsewhere\n"),
                "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
            #expect(scratch.contents == ["s"], "\(arguments) left \(scratch.contents)")
        }
        let png = scratch.file("photo.png")
        #expect(run(["render", "--size", "64x36", "-o", png]).status == 0)
        let palette = run(["palette", png, "--preset-out", scratch.file("p.json")], fileSizeLimit: 100)
        #expect(palette.status == 3, "\(palette.stderr)")
        #expect(
            palette.stderr.contains(
                "could not write \(scratch.file("p.json")): File too large; raise the file-size limit"),
            "\(palette.stderr)")
        #expect(scratch.contents == ["photo.png", "s"])
    }

    /// ffmpeg 5.1 exits 0 when it cannot write the end of its file (a full disk, here a
    /// file-size limit whose signal is ignored, as the renderer ignores it): without
    /// -xerror a broken video was renamed into place and the render reported success.
    @Test(arguments: ["mp4", "webm", "mov", "gif"])
    func aFullDiskFailsAVideo(container: String) {
        let scratch = Scratch()
        let result = run(
            [
                "render", "--size", "320x180", "--frames", "30", "--fps", "30", "--speed", "5", "-o",
                scratch.file("v.\(container)"),
            ], fileSizeLimit: 4000)
        #expect(result.status == 3, "\(result.stderr)")
        // It fails at the end, or, for ProRes's larger packets, while frames still arrive.
        #expect(result.stderr.hasPrefix("fluidgradient: ffmpeg "), "\(result.stderr)")
        #expect(
            result.stderr.contains("while writing \(scratch.file("v.\(container)")) (it exited with status 1)"),
            "\(result.stderr)")
        #expect(result.stderr.contains("File too large"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(scratch.contents.isEmpty, "\(scratch.contents)")
    }

    /// An encoder that exits 0 having written nothing (a stand-in, or options that send
    /// the output elsewhere) is a failure, not an empty video under the final name.
    @Test func anEncoderThatWritesNothingIsAnError() throws {
        let scratch = Scratch()
        let silent = try script("#!/bin/sh\ncat > /dev/null\nexit 0\n", named: "silent-ffmpeg", in: scratch)
        let expected =
            "ffmpeg exited successfully but wrote nothing to \(scratch.file("v.mp4")); "
            + "check FLUIDGRADIENT_FFMPEG and any extra ffmpeg options"
        let standIn = run(
            ["render", "--size", "64x36", "--frames", "3", "-o", scratch.file("v.mp4")],
            environment: ["FLUIDGRADIENT_FFMPEG": silent])
        let null = run([
            "render", "--size", "64x36", "--frames", "3", "--ffmpeg-options", "-f null", "-o", scratch.file("v.mp4"),
        ])
        for result in [standIn, null] {
            #expect(result.status == 3)
            #expect(result.stderr == "fluidgradient: \(expected)\n")
        }
        #expect(scratch.contents == ["silent-ffmpeg"])
    }

    @Test func ffmpegKilledMidStreamIsAnError() throws {
        let scratch = Scratch()
        let command = RunningCommand(["render", "--size", "640x360", "--duration", "60", "-o", scratch.file("c.mp4")])
        let ffmpeg = try waitForChild(of: command.pid, named: "ffmpeg")
        usleep(300_000)
        kill(ffmpeg, SIGKILL)
        let result = command.wait()
        #expect(result.status == 3)
        #expect(result.stderr.contains("killed by signal 9"))
        #expect(scratch.contents.isEmpty)
    }

    /// A report that cannot be written (a full disk, a closed stdout) is a failure: a CI
    /// gate must not pass on an empty report.
    @Test func aReportThatCannotBeWrittenIsAFailure() throws {
        let scratch = Scratch()
        let png = scratch.file("a.png")
        #expect(run(["render", "--size", "32x18", "-o", png]).status == 0)
        for arguments in [["presets", "list"], ["compare", png, png, "--json"], ["--help"]] {
            let result = RunningCommand(arguments, stdoutPath: "/dev/full").wait()
            #expect(result.status == 3, "\(arguments)")
            #expect(
                result.stderr == "fluidgradient: could not write to standard output: No space left on device\n",
                "\(arguments)")
        }
    }

    /// Writing a finished file into place is a rename, which would replace whatever is
    /// there: a link is written through (it stays a link), and a FIFO or a device is refused.
    @Test func linksAreWrittenThroughAndSpecialFilesRefused() throws {
        let scratch = Scratch()
        let real = scratch.file("real.png"), link = scratch.file("link.png")
        #expect(run(["render", "--size", "32x18", "-o", real]).status == 0)
        #expect(symlink("real.png", link) == 0)
        #expect(run(["render", "--size", "32x18", "--seed", "5", "-o", link]).status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "real.png")
        #expect(run(["compare", real, link]).status == 0)
        #expect(run(["render", "--size", "32x18", "--seed", "5", "-o", scratch.file("fresh.png")]).status == 0)
        #expect(
            run(["compare", real, scratch.file("fresh.png")]).status == 0, "the link's target holds the new render")
        #expect(mkfifo(scratch.file("f.png"), 0o600) == 0)
        BadInputTests.expectRejected(
            ["render", "--size", "32x18", "-o", scratch.file("f.png")], scratch: scratch,
            mentions: "it is a named pipe, which writing a finished file into place would replace; name a regular file")
        #expect(symlink("missing.png", scratch.file("dangling.png")) == 0)
        BadInputTests.expectRejected(
            ["render", "--size", "32x18", "-o", scratch.file("dangling.png")], scratch: scratch,
            mentions: "it is a symbolic link to a missing file")
        BadInputTests.expectRejected(
            ["palette", real, "--preset-out", "/dev/full"], scratch: scratch, mentions: "/dev/full: it is a device")
        // /dev/stdout leads to whatever file the shell opened (a log, appended to): renaming onto it
        // would replace that file.
        #expect(symlink("/dev/stdout", scratch.file("out.png")) == 0)
        BadInputTests.expectRejected(
            ["render", "--size", "32x18", "-o", scratch.file("out.png")], scratch: scratch,
            mentions: "it is a link to an open file descriptor")
        #expect(symlink("loop.png", scratch.file("loop.png")) == 0)
        BadInputTests.expectRejected(
            ["render", "--size", "32x18", "-o", scratch.file("loop.png")], scratch: scratch,
            mentions: "(Too many levels of symbolic links)")
    }

    /// A name near the 255-byte limit is written: its temporary name gives way instead.
    @Test func aLongFileNameIsWrittenAndATooLongOneIsRefused() throws {
        let scratch = Scratch()
        let longest = String(repeating: "n", count: 251) + ".png"
        let result = run(["render", "--size", "32x18", "-o", scratch.file(longest)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.contents == [longest])
        let pattern = String(repeating: "f", count: 244) + "%05d.png"
        #expect(run(["render", "--size", "32x18", "--frames", "2", "-o", scratch.file(pattern)]).status == 0)
        #expect(scratch.contents.count == 3)
        BadInputTests.expectRejected(
            ["render", "--size", "32x18", "-o", scratch.file("n" + longest)], scratch: scratch,
            mentions: "its file name is 256 bytes, and a name can have at most 255; choose a shorter name")
        // An extension that leaves no room for a temporary name (palette's --preset-out takes any).
        BadInputTests.expectRejected(
            [
                "palette", scratch.file(longest), "--preset-out",
                scratch.file("p." + String(repeating: "x", count: 250)),
            ], scratch: scratch,
            mentions: "its extension is too long to write it safely; choose a shorter name")
    }

    /// A path the system will not look up for its length (over 4,096 bytes, or a name over
    /// 255) is called too long, not missing, wherever a path is read or written.
    @Test func aPathTooLongIsCalledThat() {
        let scratch = Scratch()
        let long = scratch.path + String(repeating: "/" + String(repeating: "d", count: 250), count: 17)
        let longName = scratch.file(String(repeating: "n", count: 300))
        for arguments in [
            ["render", "--size", "8x8", "-o", long + "/o.png"], ["render", "--size", "8x8", "-o", long + "/%03d.png"],
            ["render", "--preset", long + "/p.json", "-o", scratch.file("o.png")],
            ["render", "--preset", longName + ".json", "-o", scratch.file("o.png")],
            ["render", "--palette", long + "/p.txt", "-o", scratch.file("o.png")],
            ["compare", long + "/a.png", longName + ".png"], ["compare", longName + ".png", long + "/%03d.png"],
            ["palette", longName + ".png"], ["batch", long + "/b.json"],
        ] {
            let result = run(arguments)
            #expect(result.status == 2, "\(arguments[0])")
            #expect(
                result.stderr.hasSuffix(
                    ": path too long: at most 4096 bytes in all, and 255 in each name; choose a shorter path\n"),
                "\(arguments[0]): \(result.stderr.suffix(200))")
        }
        #expect(scratch.contents.isEmpty)
    }

    @Test func aClosedStdoutIsAnErrorNotADeathBySIGPIPE() throws {
        // Through the harness, so the wait has a deadline: the binary is "$0" of the pipeline.
        let result = RunningCommand(
            ["render", "--size", "320x180", "--duration", "5", "-o", "-"],
            launcher: ["/bin/bash", "-c", "set -o pipefail; \"$0\" \"$@\" | head -c 1000 > /dev/null"]
        ).wait()
        #expect(result.status == 3)
        #expect(result.stderr.contains("could not write raw frames to standard output"))
    }
}

/// Whether `pid` is a live process: not gone, and not a zombie that its new parent has
/// yet to reap (after our binary exits, init reaps its children in its own time).
func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else {
        return false
    }
    return stat[stat.index(close, offsetBy: 2)...].first != "Z"
}

/// Waits until `scratch` holds `count` finished PNGs (not temporary dot-files) written
/// by `command`. Throws, killing the command, when it exits first or `timeout` seconds pass.
func waitForFrames(_ count: Int, in scratch: Scratch, of command: RunningCommand, timeout: Double = 60) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while scratch.contents.filter({ $0.hasSuffix(".png") && !$0.hasPrefix(".") }).count < count {
        guard isRunning(command.pid) else {
            throw HarnessFailure("fluidgradient exited before writing \(count) frames")
        }
        guard Date() < deadline else {
            command.signal(SIGKILL)
            throw HarnessFailure("fluidgradient wrote fewer than \(count) frames in \(timeout) s")
        }
        usleep(20_000)
    }
}

/// The pid of `parent`'s child process called `name`, once it has started.
func waitForChild(of parent: pid_t, named name: String, timeout: Double = 20) throws -> pid_t {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if command == name, fields.count > 1, pid_t(fields[1]) == parent { return pid }
        }
        usleep(20_000)
    }
    throw HarnessFailure("no \(name) child of \(parent) appeared")
}

/// A step of a test's set-up that did not happen in time.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
