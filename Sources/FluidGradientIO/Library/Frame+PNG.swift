import FluidGradient
import Foundation

extension Frame {
    /// Encodes the frame as a PNG file's bytes, in memory, through libpng: the bytes
    /// `fluidgradient render` writes for the same frame.
    ///
    /// The PNG has the frame's ``depth`` and is tagged sRGB. It is RGBA when the frame
    /// ``hasTransparency``, RGB otherwise. It is compressed for speed (zlib level 1, the
    /// Sub filter), which suits smooth, dithered gradients.
    ///
    /// - Returns: The PNG file's bytes.
    /// - Throws: An error when libpng cannot encode the frame, such as when memory runs out.
    public func pngData() throws -> Data {
        Data(try PNGFile.data(pixels, alpha: hasTransparency))
    }
}
