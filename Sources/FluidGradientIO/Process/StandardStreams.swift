import Foundation

/// The process's standard descriptors, which a cron job or a daemon may start with
/// closed, full (`2>/dev/full`) or leading to a reader that has gone.
package enum StandardStreams {
    /// Opens `/dev/null` read-only on each of descriptors 0, 1 and 2 that is closed, so
    /// that no file the process opens later takes its number (a temporary output opened
    /// as descriptor 2 would get every message written into it). Writing to such a
    /// stand-in fails with EBADF, as writing to the closed descriptor would have, so a
    /// report on a closed stdout is still lost and said to be.
    ///
    /// Call it first thing, before anything opens a file.
    package static func reserveClosedDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            // Opened on the lowest free number, which is `descriptor` when the ones below are open.
            if opened >= 0, opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Writes `text` to stderr. A message that cannot be written (EPIPE, EBADF, ENOSPC,
    /// or any other failure) is lost: it never stops the process or changes its exit status.
    ///
    /// - Parameter text: the whole message, line break included.
    package static func writeError(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }
}
