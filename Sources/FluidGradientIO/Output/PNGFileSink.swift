import FluidGradient
import Foundation
import SystemPackage

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
