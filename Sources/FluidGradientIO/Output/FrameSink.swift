import FluidGradient
import Foundation
import SystemPackage

/// Somewhere rendered frames go. Frames arrive in order unless ``isOrderIndependent``.
/// A sink leaves nothing under a final name until ``finish()`` (or, for a sequence,
/// until each frame's file is complete); ``abort()`` removes what it started.
package protocol FrameSink: AnyObject, Sendable {
    var pixelFormat: PixelFormat { get }
    /// The Y′CbCr matrix of a 4:2:0 ``pixelFormat``.
    var yuvMatrix: YUVMatrix { get }
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
    package var yuvMatrix: YUVMatrix { .bt709 }
    package var leftBehind: InterruptionError.LeftBehind { .partialOutputRemoved }
    package func cancel() {}
}
