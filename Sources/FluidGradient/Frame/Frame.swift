/// One rendered frame of a preset: the pixels the `fluidgradient` command writes for the
/// same instant and size.
///
/// A frame is a value: it can be kept, compared and handed to another task. Its samples
/// are RGBA with straight alpha, row after row from the top-left pixel, at the ``depth``
/// it was rendered at.
///
/// ```swift
/// let frame = try preset.frame(at: 2.0, width: 1280, height: 720)
/// let png = try frame.pngData()
/// ```
public struct Frame: Hashable, Sendable {
    /// The bits per channel of a frame's samples.
    public enum Depth: Hashable, Sendable {
        /// 8 bits per channel: one byte a sample, dithered unless rendering was asked not to.
        case eight
        /// 16 bits per channel: two bytes a sample, little-endian.
        case sixteen
    }

    /// The samples, in ``PixelFormat/rgba`` or ``PixelFormat/rgba64le``.
    package let pixels: PixelBuffer

    /// The instant the frame shows, in seconds from the start of the animation.
    public let time: Double

    /// Whether pixels may be less than opaque, because the preset's background lets
    /// the blobs show over nothing. An opaque frame's alpha samples are all at their
    /// largest value, and its PNG is written as RGB.
    public let hasTransparency: Bool

    /// The space the samples are in: the preset's ``Preset/colorSpace``, or what a
    /// decoded file's tags said.
    package let colorSpace: ColorSpace

    package init(pixels: PixelBuffer, time: Double, hasTransparency: Bool, colorSpace: ColorSpace = .srgb) {
        precondition(pixels.format == .rgba || pixels.format == .rgba64le, "a frame is RGBA")
        self.pixels = pixels
        self.time = time
        self.hasTransparency = hasTransparency
        self.colorSpace = colorSpace
    }

    /// The width in pixels.
    public var width: Int { pixels.width }

    /// The height in pixels.
    public var height: Int { pixels.height }

    /// The bits per channel of ``bytes``.
    public var depth: Depth { pixels.format == .rgba64le ? .sixteen : .eight }

    /// The samples: red, green, blue and alpha for each pixel, row after row. At
    /// ``Depth/eight`` each sample is one byte; at ``Depth/sixteen`` two bytes,
    /// little-endian. There are `width × height × 4` samples.
    public var bytes: [UInt8] { pixels.bytes }
}
