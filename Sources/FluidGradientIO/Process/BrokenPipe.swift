import Foundation

/// Runs `body` with SIGPIPE blocked on the calling thread, so that a write to a pipe whose
/// reader is gone (ffmpeg that exited or was stopped) fails with EPIPE instead of ending a
/// process that has not ignored SIGPIPE: a program embedding the library, such as the
/// studio, or a test runner. The command ignores SIGPIPE itself (``Interruption/install()``).
///
/// A write's SIGPIPE is sent to the thread that wrote, so while it is blocked it stays
/// pending there; it is taken off (`sigtimedwait` with no wait) before the mask is restored,
/// unless the caller had blocked SIGPIPE already and so chose to see it.
///
/// - Parameter body: the writes.
/// - Returns: what `body` returns.
package func withBrokenPipeSignalBlocked<Result>(_ body: () -> Result) -> Result {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer {
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&previous, SIGPIPE) == 0, sigismember(&pending, SIGPIPE) == 1 {
            var noWait = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    return body()
}
