import Foundation

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR: 0 when done,
/// otherwise the `errno` of the write that failed.
///
/// On a non-blocking descriptor, or a socket written with `sendWithoutWaiting`
/// (`MSG_DONTWAIT`, which leaves the socket's shared flags alone), a full buffer waits
/// in `poll`, asking `stopWaiting` (with the bytes written so far) every 50 ms; when it
/// answers true the write gives up with `ECANCELED`.
///
/// With `pollFirst`, for a blocking pipe, every write waits in that `poll` first and
/// writes at most `PIPE_BUF` bytes: a pipe that polls as writable has a free page, so
/// it takes them without blocking.
///
/// A pipe whose reader is gone is `EPIPE`, never a SIGPIPE (``withBrokenPipeSignalBlocked(_:)``).
func writeAll(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, sendWithoutWaiting: Bool = false, pollFirst: Bool = false,
    stopWaiting: (_ written: Int) -> Bool = { _ in false }
) -> Int32 {
    withBrokenPipeSignalBlocked {
        writeEach(descriptor, bytes, sendWithoutWaiting: sendWithoutWaiting, pollFirst: pollFirst, stopWaiting)
    }
}

/// ``writeAll(_:_:sendWithoutWaiting:pollFirst:stopWaiting:)``'s loop.
private func writeEach(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, sendWithoutWaiting: Bool, pollFirst: Bool,
    _ stopWaiting: (_ written: Int) -> Bool
) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        if pollFirst {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, 50) == 0 {
                if stopWaiting(offset) { return ECANCELED }
                continue
            }
        }
        let start = bytes.baseAddress! + offset
        let length = pollFirst ? min(bytes.count - offset, Int(PIPE_BUF)) : bytes.count - offset
        let count =
            sendWithoutWaiting
            ? send(descriptor, start, length, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            : Glibc.write(descriptor, start, length)
        if count < 0 {
            switch errno {
            case EINTR: continue
            case EAGAIN:
                if stopWaiting(offset) { return ECANCELED }
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 50)
                continue
            default: return errno
            }
        }
        offset += count
    }
    return 0
}

/// Asks Linux for a 1 MiB pipe buffer (up to pipe-max-size), so a row band goes in one
/// write; harmless on anything that is not a pipe.
func enlargePipeBuffer(_ descriptor: Int32) {
    // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc's module does not export.
    _ = fcntl(descriptor, 1031, 1 << 20)
}
