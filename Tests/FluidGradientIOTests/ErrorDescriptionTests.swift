import FluidGradientIO
import SystemPackage
import Testing

/// Each error type renders its cases' data as the one line the command line prints.
@Suite struct ErrorDescriptionTests {
    @Test func anEncoderFailureSaysHowFFmpegEnded() {
        let stopped = VideoError.encoderFailed(
            path: "out.mp4", frame: 12, ending: .exited(status: 1), stderrTail: "Conversion failed!")
        #expect(
            stopped.description
                == "ffmpeg stopped reading frames at frame 12 while writing out.mp4 (it exited with status 1): "
                + "Conversion failed!")
        let killed = VideoError.encoderFailed(
            path: "out.webm", frame: nil, ending: .signalled(signal: 9), stderrTail: "")
        #expect(killed.description == "ffmpeg failed while writing out.webm (it was killed by signal 9)")
        let lost = VideoError.encoderFailed(path: "a.gif", frame: nil, ending: .lost, stderrTail: "x / y")
        #expect(lost.description == "ffmpeg failed while writing a.gif (it left no exit status to collect): x / y")
    }

    @Test func aMissingFFmpegSaysWhatNeedsIt() {
        #expect(
            VideoError.ffmpegNotFound(need: .videoOutput).description
                == "ffmpeg was not found on PATH, and video output needs it: install it (apt-get install ffmpeg) "
                + "or set FLUIDGRADIENT_FFMPEG to its path; PNG output works without it")
        #expect(VideoError.ffmpegNotFound(need: .bundle).description.hasSuffix("to its path"))
    }

    /// Each system reason gets the advice that fits it, and others none.
    @Test(arguments: [
        (Errno.noSpace, "No space left on device; free some space, or write elsewhere"),
        (Errno.diskQuotaExceeded, "Disk quota exceeded; free some space, or write elsewhere"),
        (Errno.fileTooLarge, "File too large; raise the file-size limit (ulimit -f) or write elsewhere"),
        (Errno.readOnlyFileSystem, "Read-only file system; choose a directory you can write to"),
        (Errno.ioError, "Input/output error"),
    ])
    func aFailedWriteGivesAdviceForItsReason(errno: Errno, expected: String) {
        #expect(FileError.cannotWrite(path: "o.png", errno: errno).description == "could not write o.png: " + expected)
    }

    @Test func aLinkAndAMissingFileAreToldApart() {
        #expect(
            FileError.cannotCreate(path: "out.png", linkTarget: "/data/real.png", errno: .permissionDenied).description
                == "cannot write out.png (a link to /data/real.png): Permission denied; "
                + "choose a directory you can write to")
        #expect(
            FileError.brokenLink(path: "l.png", errno: .noSuchFileOrDirectory).description
                == "cannot write l.png: it is a symbolic link to a missing file; remove the link or write elsewhere")
        #expect(
            FileError.cannotRead(path: "p.json", what: "preset", errno: .noSuchFileOrDirectory).description
                == "cannot read preset p.json: no such file")
    }

    @Test func anInterruptionSaysWhatItLeft() {
        #expect(InterruptionError().description == "interrupted")
        #expect(
            InterruptionError(leftBehind: .standardOutput(frames: 1, partial: true)).description
                == "interrupted; standard output got 1 complete frame and part of the next")
        #expect(
            InterruptionError(leftBehind: .standardOutput(frames: 0, partial: true)).description
                == "interrupted; standard output got 0 complete frames and part of the first")
    }
}
