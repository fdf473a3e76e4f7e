import FluidGradient
import Foundation
import SystemPackage

/// Somewhere rendered frames go. Frames arrive in order unless ``isOrderIndependent``.
/// A sink leaves nothing under a final name until ``finish()`` (or, for a sequence,
/// until each frame's file is complete); ``abort()`` removes what it started.
package protocol FrameSink: AnyObject, Sendable {
    var pixelFormat: PixelFormat { get }
    /// Whether frames may be written concurrently and out of order.
    var isOrderIndependent: Bool { get }
    func write(_ buffer: PixelBuffer, frameIndex: Int) throws
    func finish() throws
    /// Makes writes that are waiting on a consumer (ffmpeg) fail at once, from another
    /// thread than the writers', ahead of ``abort()``: the output is being thrown away.
    func cancel()
    func abort()
    /// What an interrupt leaves behind, for the one-line message.
    var leftBehind: InterruptionError.LeftBehind { get }
}

extension FrameSink {
    package var leftBehind: InterruptionError.LeftBehind { .partialOutputRemoved }
    package func cancel() {}
}

/// One frame into one PNG file: RGB, or RGBA when the frame has transparency;
/// 8 or 16 bits. Frames are rendered as RGBA either way (the fast layout) and libpng
/// drops the alpha of opaque frames.
package final class PNGFileSink: FrameSink, @unchecked Sendable {
    package let pixelFormat: PixelFormat
    package let isOrderIndependent = false
    private let file: AtomicFile
    private let options: PNGOptions
    private let alpha: Bool
    private var wrote = false

    package init(path: String, depth: Int, alpha: Bool, options: PNGOptions = PNGOptions()) throws {
        pixelFormat = depth == 16 ? .rgba64le : .rgba
        self.alpha = alpha
        self.options = options
        file = try AtomicFile(destination: path)
    }

    package func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        try PNGFile.encode(
            buffer, toPath: file.temporaryPath, options: options, displayPath: file.destination, alpha: alpha)
        wrote = true
    }

    package func finish() throws {
        guard wrote else {
            file.discard()
            throw PNGError.nothingRendered(path: file.destination)
        }
        try file.commit()
    }

    package func abort() { file.discard() }
}

/// Numbered PNG files; each is complete under its final name or absent.
package final class PNGSequenceSink: FrameSink, @unchecked Sendable {
    package let pixelFormat: PixelFormat
    package let isOrderIndependent = true
    private let pattern: FramePattern
    private let options: PNGOptions
    private let alpha: Bool

    package init(
        pattern: FramePattern, firstFrame: Int = 0, depth: Int, alpha: Bool, options: PNGOptions = PNGOptions()
    ) throws {
        pixelFormat = depth == 16 ? .rgba64le : .rgba
        self.alpha = alpha
        self.pattern = pattern
        self.options = options
        // Prove the directory is writable before any rendering, naming a file it would write.
        try AtomicFile(destination: pattern.path(frame: firstFrame)).discard()
    }

    package func write(_ buffer: PixelBuffer, frameIndex: Int) throws {
        let path = pattern.path(frame: frameIndex)
        try AtomicFile.write(to: path) { temporaryPath throws in
            try PNGFile.encode(buffer, toPath: temporaryPath, options: options, displayPath: path, alpha: alpha)
        }
    }

    package func finish() throws {}
    package func abort() {}
    package var leftBehind: InterruptionError.LeftBehind { .completeFramesKept }
}

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
            throw DestinationError.standardOutput(frames: frames, errno: Errno(rawValue: failure))
        }
        frames += 1
        partial = false
    }

    package func cancel() { lock.withLock { cancelled = true } }
    package func finish() throws {}
    package func abort() {}

    package var leftBehind: InterruptionError.LeftBehind { .standardOutput(frames: frames, partial: partial) }
}
