import FluidGradientIO
import Foundation
import Testing

/// Signals during a render: Ctrl-C, a closed terminal and SIGTERM stop it with exit 130
/// and no half-written output, even with a stalled reader; what the launcher ignores
/// stays ignored, and ignoring SIGCHLD does not hide a failing ffmpeg.
@Suite(.serialized) struct InterruptedRenderTests {
    /// Ctrl-C (SIGINT) and a closed terminal (SIGHUP) stop a render alike.
    @Test(arguments: [SIGINT, SIGHUP])
    func interruptingAVideoRemovesItAndStopsFFmpeg(signal: Int32) throws {
        let scratch = Scratch()
        let command = RunningCommand([
            "render", "--size", "640x360", "--encode-size", "full", "--duration", "60", "-o", scratch.file("d.mp4"),
        ])
        let ffmpeg = try waitForChild(of: command.pid, named: "ffmpeg")
        usleep(300_000)
        #expect(scratch.contents.count == 1 && scratch.contents[0].hasPrefix(".d.tmp-"))
        command.signal(signal)
        let result = command.wait()
        #expect(result.status == 130)
        #expect(result.stderr == "fluidgradient: interrupted; partial output removed\n")
        #expect(scratch.contents.isEmpty)
        #expect(kill(ffmpeg, 0) != 0, "ffmpeg is still running")
    }

    /// An "ignore SIGCHLD" inherited from the launcher would let the kernel reap ffmpeg and
    /// lose its exit status; a failing ffmpeg must still be a failure.
    @Test func aFailingFFmpegFailsEvenWhenTheLauncherIgnoresSIGCHLD() throws {
        let scratch = Scratch()
        let fake = try script("#!/bin/sh\ncat > /dev/null\nexit 1\n", named: "failing-ffmpeg", in: scratch)
        let result = run(
            ["render", "--size", "64x36", "--frames", "3", "-o", scratch.file("b.mp4")],
            environment: ["FLUIDGRADIENT_FFMPEG": fake],
            launcher: ["/usr/bin/perl", "-e", "$SIG{CHLD} = 'IGNORE'; exec @ARGV or die"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("exited with status 1"), "\(result.stderr)")
        #expect(scratch.contents == ["failing-ffmpeg"])
    }

    /// A second Ctrl-C while the first one's cleanup runs stops at once, and says so.
    @Test func interruptingTwiceStopsAtOnceAndStillRemovesThePartialOutput() throws {
        let scratch = Scratch()
        // An "ffmpeg" whose stderr a grandchild holds open for 5 s after it is killed (in a
        // session of its own, beyond the kill of the encoder's process group), so the first
        // interrupt's cleanup waits there and the second one comes during it.
        let fake = try script("#!/bin/sh\nsetsid sleep 5 >&2 &\ncat > /dev/null\n", named: "slow-ffmpeg", in: scratch)
        let command = RunningCommand(
            ["render", "--size", "640x360", "--encode-size", "full", "--duration", "60", "-o", scratch.file("d.mp4")],
            environment: ["FLUIDGRADIENT_FFMPEG": fake])
        let ffmpeg = try waitForChild(of: command.pid, named: "slow-ffmpeg")
        usleep(300_000)
        command.signal(SIGINT)
        usleep(500_000)
        command.signal(SIGINT)
        let result = command.wait()
        #expect(result.status == 130)
        #expect(
            result.stderr == "fluidgradient: interrupted again; stopped at once, partial output removed\n",
            "\(result.stderr)")
        #expect(scratch.contents == ["slow-ffmpeg"], "left \(scratch.contents)")
        #expect(!isRunning(ffmpeg), "the encoder is still running")
    }

    @Test func interruptingASequenceKeepsOnlyCompleteFrames() throws {
        let scratch = Scratch()
        let command = RunningCommand([
            "render", "--size", "1280x720", "--duration", "60", "-o", scratch.file("%05d.png"),
        ])
        try waitForFrames(5, in: scratch, of: command)
        command.signal(SIGINT)
        let result = command.wait()
        #expect(result.status == 130)
        #expect(result.stderr.contains("every frame written so far is complete and kept"))
        let files = scratch.contents
        #expect(files.allSatisfy { !$0.hasPrefix(".") }, "temporary files left: \(files)")
        for file in files { #expect(try PNGFile.read(scratch.file(file)).width == 1280) }
    }

    /// A reader that stops reading (a stalled pipe or socket) must not keep SIGTERM from
    /// stopping a raw render: the write to stdout waits where a stop request can reach it.
    /// A socket is what Node's child_process gives. A pipe that the render cannot open
    /// again (another user's: run as nobody, or with its mode taken away) is written a
    /// page at a time instead.
    @Test(arguments: [("pipe", SIGTERM), ("socket", SIGTERM), ("pipe it cannot reopen", SIGINT)])
    func aStalledReaderDoesNotHoldOffAnInterrupt(kind: String, signal: Int32) throws {
        let scratch = Scratch()
        var command: RunningCommand
        // The reading end, held open and never read, so the render's writes fill it and wait.
        let reader: Int32
        if kind == "pipe" {
            let fifo = scratch.file("frames.fifo")
            #expect(mkfifo(fifo, 0o600) == 0)
            reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            command = RunningCommand(["render", "--size", "320x180", "--frames", "600", "-o", "-"], stdoutPath: fifo)
        } else if kind == "pipe it cannot reopen" {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            reader = ends[0]
            #expect(fchmod(ends[1], 0o400) == 0)
            command = RunningCommand(
                ["render", "--size", "320x180", "--frames", "600", "-o", "-"], stdoutDescriptor: ends[1],
                launcher: unprivilegedLauncher)
            close(ends[1])
        } else {
            var ends: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
            reader = ends[0]
            command = RunningCommand(
                ["render", "--size", "320x180", "--frames", "600", "-o", "-"], stdoutDescriptor: ends[1])
            close(ends[1])
        }
        defer { close(reader) }
        // Full once what is queued stops growing (the render may enlarge a pipe first).
        var queued: Int32 = 0, steady = 0
        let deadline = Date() + 60
        while steady < 10, Date() < deadline, isRunning(command.pid) {
            usleep(30_000)
            var now: Int32 = 0
            _ = ioctl(reader, UInt(FIONREAD), &now)
            steady = now > 0 && now == queued ? steady + 1 : 0
            queued = now
        }
        #expect(steady == 10, "stdout never filled (\(queued) bytes queued)")
        command.signal(signal)
        let result = command.wait(timeout: 10)
        #expect(result.status == 130)
        #expect(result.stderr.hasPrefix("fluidgradient: interrupted; standard output got "), "\(result.stderr)")
    }

    /// A signal the launcher ignores stays ignored (a script's background jobs ignore
    /// SIGINT, nohup ignores SIGHUP); SIGTERM, still handled, stops the render.
    @Test func signalsTheLauncherIgnoresStayIgnored() throws {
        let scratch = Scratch()
        let command = RunningCommand(
            ["render", "--size", "320x180", "--duration", "60", "-o", scratch.file("%05d.png")],
            launcher: ["/bin/sh", "-c", "trap '' INT HUP; exec \"$@\"", "sh"])
        try waitForFrames(2, in: scratch, of: command)
        command.signal(SIGINT)
        command.signal(SIGHUP)
        usleep(500_000)
        #expect(isRunning(command.pid))
        command.signal(SIGTERM)
        let result = command.wait()
        #expect(result.status == 130)
        #expect(result.stderr == "fluidgradient: interrupted; every frame written so far is complete and kept\n")
    }
}
