import FluidGradient
import Foundation
import SystemPackage

/// Raw frames to standard output.
///
/// A reader that stops reading must not keep a stop request from taking effect, so a
/// pipe is written through a non-blocking descriptor of its own, opened again from
/// /proc (the shared one's flags are left alone), and a socket with `MSG_DONTWAIT`.
/// A pipe that cannot be opened again (another user's, or no /proc) is written a page
/// at a time, each once `poll` finds room. A file never waits on a reader and is
/// written as it is.
package final class RawSink: FrameSink, @unchecked Sendable {
    package let pixelFormat: PixelFormat
    package let isOrderIndependent = false
    private let descriptor: Int32
    private let isSocket: Bool
    /// A blocking pipe: see ``writeAll``'s `pollFirst`.
    private let isBlockingPipe: Bool
    private let lock = NSLock()
    private var cancelled = false
    private var frames = 0
    private var partial = false

    package init(format: PixelFormat) {
        pixelFormat = format
        var info = stat()
        let kind = fstat(1, &info) == 0 ? info.st_mode & S_IFMT : 0
        isSocket = kind == S_IFSOCK
        var descriptor: Int32 = -1
        if kind == S_IFIFO {
            // With no reader left, this fails (ENXIO) and fd 1 reports the broken pipe.
            descriptor = open("/proc/self/fd/1", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        }
        self.descriptor = descriptor >= 0 ? descriptor : 1
        isBlockingPipe = kind == S_IFIFO && descriptor < 0
        enlargePipeBuffer(self.descriptor)
    }

    deinit {
        if descriptor != 1 { close(descriptor) }
    }

    package func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        let failure = buffer.withUnsafeBytes { bytes in
            writeAll(descriptor, bytes, sendWithoutWaiting: isSocket, pollFirst: isBlockingPipe) { [self] written in
                partial = written > 0
                return Interruption.isRequested || lock.withLock { cancelled }
            }
        }
        if failure == ECANCELED { throw InterruptionError(leftBehind: leftBehind) }
        guard failure == 0 else {
            throw FileError.standardOutput(frames: frames, errno: Errno(rawValue: failure))
        }
        frames += 1
        partial = false
    }

    package func cancel() { lock.withLock { cancelled = true } }
    package func finish() throws {}
    package func abort() {}

    package var leftBehind: InterruptionError.LeftBehind { .standardOutput(frames: frames, partial: partial) }
}
