import FluidGradient
import Foundation

extension Frame {
    /// Encodes the frame as a PNG file's bytes, in memory, through libpng: the bytes
    /// `fluidgradient render` writes for the same frame.
    ///
    /// The PNG has the frame's ``depth`` and is tagged with its preset's colour space:
    /// sRGB, or Display P3 (cICP and an ICC profile). It is RGBA when the frame
    /// ``hasTransparency``, RGB otherwise. It is compressed for speed (zlib level 1, the
    /// Sub filter), which suits smooth, dithered gradients.
    ///
    /// - Returns: The PNG file's bytes.
    /// - Throws: An error when libpng cannot encode the frame, such as when memory runs out.
    public func pngData() throws -> Data {
        Data(try PNGFile.data(pixels, options: PNGOptions(colorSpace: colorSpace), alpha: hasTransparency))
    }

    /// Decodes a PNG file's bytes into a frame, such as an image to compare a render with
    /// or to take a palette from.
    ///
    /// An 8-bit PNG gives a frame of ``Depth/eight``, a 16-bit one ``Depth/sixteen``; grey
    /// and palette images come back as RGB. The frame ``hasTransparency`` when the PNG has
    /// an alpha channel; an RGB PNG's alpha samples are all opaque. Its ``time`` is 0. A
    /// frame's ``pngData()`` decodes to an equal frame and encodes to the same bytes.
    ///
    /// - Parameter data: The PNG file's bytes.
    /// - Throws: ``PNGError/cannotDecode(path:message:)``, with `path` "PNG data", when
    ///   the bytes are not a PNG, are cut short, or hold more than 64 Mpixels;
    ///   ``PNGError/cannotOpen(path:errno:)`` when the system cannot read memory as a stream.
    public init(pngData data: Data) throws(PNGError) {
        self.init(try PNGFile.decode([UInt8](data), name: "PNG data"))
    }

    /// A decoded PNG as a frame at time 0: RGBA at the PNG's depth, opaque where the PNG
    /// has no alpha channel.
    ///
    /// - Parameter image: the decoded PNG.
    package init(_ image: DecodedImage) {
        let sixteen = image.bitDepth == 16
        var pixels = PixelBuffer(width: image.width, height: image.height, format: sixteen ? .rgba64le : .rgba)
        let opaque: UInt16 = sixteen ? 0xFFFF : 0xFF
        pixels.withUnsafeMutableBytes { bytes in
            for pixel in 0..<(image.width * image.height) {
                for lane in 0..<4 {
                    let sample = lane < image.channels ? image.samples[image.channels * pixel + lane] : opaque
                    if sixteen {
                        bytes[8 * pixel + 2 * lane] = UInt8(truncatingIfNeeded: sample)
                        bytes[8 * pixel + 2 * lane + 1] = UInt8(truncatingIfNeeded: sample >> 8)
                    } else {
                        bytes[4 * pixel + lane] = UInt8(truncatingIfNeeded: sample)
                    }
                }
            }
        }
        self.init(pixels: pixels, time: 0, hasTransparency: image.hasAlpha, colorSpace: image.colorSpace ?? .srgb)
    }
}
