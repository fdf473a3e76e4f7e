import FluidGradientIO
import Foundation
import Testing

/// A program that embeds the library has not ignored SIGPIPE, as the command does: a write
/// to ffmpeg after it exited, or after a stop killed it, must fail, not end the program.
@Suite struct BrokenPipeTests {
    @Test func aWriteToAClosedPipeIsEPIPEAndLeavesNoSignalPending() {
        // The default disposition, which ends the process, for the time of the test.
        let previous = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, previous) }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let failure = withBrokenPipeSignalBlocked { () -> Int32 in
            var byte: UInt8 = 1
            return write(ends[1], &byte, 1) < 0 ? errno : 0
        }
        #expect(failure == EPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        #expect(sigismember(&mask, SIGPIPE) == 0, "the thread's mask is restored")
    }
}
