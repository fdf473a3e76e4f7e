import CSignalCleanup
import Foundation

/// SIGINT, SIGTERM and SIGHUP handling for long renders.
///
/// ``install()`` replaces the default "die at once" with a flag that render loops
/// poll through ``check()``, so they stop between frames, stop ffmpeg, and remove
/// what they were writing. A second Ctrl-C while that cleanup runs exits at once,
/// after killing every registered child process and removing every registered
/// temporary file, and says so.
package enum Interruption {
    /// Installs the handlers, and ignores SIGPIPE and SIGXFSZ so that a closed pipe or a
    /// file-size limit (`ulimit -f`) is an error that cleans up, not a death.
    package static func install() {
        // Without the pipe (no descriptor left), waits look for a stop every 50 ms instead.
        _ = fg_interrupt_prepare()
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // A launcher may have blocked these (signal masks are inherited); we handle them.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        // A signal the launcher chose to ignore stays ignored: nohup's SIGHUP, and the
        // SIGINT a shell has background jobs of a script ignore.
        // The handler is C (CSignalCleanup), where async-signal safety can be seen.
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            sigaction(number, nil, &current)
            let ignored =
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(SIG_IGN, to: Int.self)
            if !ignored { signal(number, fg_interrupt_handler) }
        }
        // Children must stay ours to reap: an inherited "ignore SIGCHLD" would have the
        // kernel reap them, and their exit status would be lost.
        signal(SIGCHLD, SIG_DFL)
    }

    package static var isRequested: Bool { fg_interrupt_requested() != 0 }

    /// Throws ``InterruptionError`` once a stop was requested.
    package static func check() throws(InterruptionError) {
        if isRequested { throw InterruptionError() }
    }

    /// Waits until `descriptor` is ready for `events`, has hung up or failed, or a stop
    /// was requested: a signal ends the wait at once, through the pipe its handler writes
    /// to, where a blocking call would be restarted and go on waiting.
    ///
    /// A failed `poll` returns too, so that the call that follows reports the error.
    ///
    /// - Parameters:
    ///   - descriptor: what to wait on.
    ///   - events: `POLLIN` or `POLLOUT`.
    /// - Throws: ``InterruptionError`` once a stop is requested.
    package static func wait(for descriptor: Int32, events: Int16) throws(InterruptionError) {
        let wake = fg_interrupt_wake_descriptor()
        var ready: Int32
        repeat {
            try check()
            var waits = [
                pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            ready = poll(&waits, 2, wake >= 0 ? -1 : 50)
        } while ready == 0 || ready < 0 && errno == EINTR
        try check()
    }

    /// Runs `work` on a thread of its own and waits for it where an interrupt ends the
    /// wait, for work that cannot check for one itself (the reference renderer, minutes
    /// at 4K). Interrupted, the work is left running, to end with the process.
    ///
    /// - Parameter work: what to run; it must not write anything the process keeps.
    /// - Returns: what `work` returned.
    /// - Throws: ``InterruptionError`` once a stop is requested.
    package static func runUntilDone<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result
    ) throws(InterruptionError) -> Result {
        var done: [Int32] = [-1, -1]
        guard pipe(&done) == 0 else { return work() }
        for end in done { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let box = ResultBox<Result>()
        Thread { [done] in
            box.set(work())
            _ = write(done[1], "!", 1)
            close(done[1])
        }.start()
        defer { close(done[0]) }
        try wait(for: done[0], events: Int16(POLLIN))
        return box.get()!
    }

    /// A temporary file that a second interrupt removes; returns the slot to unregister.
    package static func register(temporaryPath path: String) -> Int32 { fg_cleanup_add_path(path) }
    package static func unregister(temporaryPathSlot slot: Int32) { fg_cleanup_remove_path(slot) }

    /// A child process that a second interrupt kills; unregister it before reaping it.
    static func register(child pid: pid_t) -> Int32 { fg_cleanup_add_child(pid) }
    static func unregister(childSlot slot: Int32) { fg_cleanup_remove_child(slot) }
}

/// A value handed from one thread to another.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ value: Value) { lock.withLock { self.value = value } }
    func get() -> Value? { lock.withLock { value } }
}
