import FluidGradient
import Foundation

extension Frame {
    /// Encodes the frame as a PNG file's bytes, in memory, through libpng: the bytes
    /// `fluidgradient render` writes for the same frame.
    ///
    /// The PNG has the frame's `depth` and is tagged with its preset's colour space:
    /// sRGB, or Display P3 (cICP and an ICC profile). It is RGBA when the frame
    /// `hasTransparency`, RGB otherwise. It is compressed for speed (zlib level 1, the
    /// Sub filter), which suits smooth, dithered gradients.
    ///
    /// - Returns: The PNG file's bytes.
    /// - Throws: ``PNGError/cannotEncode(message:)`` when libpng cannot encode the frame,
    ///   such as when memory runs out.
    public func pngData() throws(PNGError) -> Data {
        Data(try PNGFile.data(pixels, options: PNGOptions(colorSpace: colorSpace), alpha: hasTransparency))
    }

    /// Decodes a PNG file's bytes into a frame, such as an image to compare a render with
    /// or to take a palette from.
    ///
    /// An 8-bit PNG gives a frame of `Depth/eight`, a 16-bit one `Depth/sixteen`; grey
    /// and palette images come back as RGB. The frame `hasTransparency` when the PNG has
    /// an alpha channel; an RGB PNG's alpha samples are all opaque. Its `time` is 0. A
    /// frame's ``pngData()`` decodes to an equal frame and encodes to the same bytes.
    ///
    /// Decoding ends with the last row: the compressed data after it, however long, is
    /// never inflated, and the chunks after it are not read; text, profile and other
    /// ancillary chunks (but `tRNS`) are skipped. So the work is bounded by the pixels and
    /// the bytes up to them, and a service can also stop it at a deadline.
    ///
    /// - Parameters:
    ///   - data: The PNG file's bytes.
    ///   - shouldStop: Asked before each read of the compressed data (every few
    ///     milliseconds of work); true stops the decode with an error.
    /// - Throws: ``PNGError/cannotDecode(path:message:)``, with `path` "PNG data", when
    ///   the bytes are not a PNG, are cut short, hold more than 64 Mpixels, or `shouldStop`
    ///   stopped the decode; ``PNGError/cannotOpen(path:errno:)`` when the system cannot
    ///   read memory as a stream.
    public init(pngData data: Data, shouldStop: (@Sendable () -> Bool)? = nil) throws(PNGError) {
        self = try PNGFile.decode(data, name: "PNG data", shouldStop: shouldStop)
    }
}
