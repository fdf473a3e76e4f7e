import FluidGradient
import Foundation
import SystemPackage

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
