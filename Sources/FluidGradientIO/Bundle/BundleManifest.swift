import Foundation

/// The bundle's `manifest.json`: every file, what it is for, and how close it comes to
/// the full-size render, so a build step or a reviewer can choose and check without
/// decoding anything.
public struct BundleManifest: Codable, Sendable, Equatable {
    /// One file of the bundle.
    public struct File: Codable, Sendable, Equatable {
        /// The name inside the bundle directory.
        public var file: String
        /// `loop`, `stacked-alpha-loop`, `poster`, `player` or `page`.
        public var role: String
        /// The MIME type, with the codecs parameter for a video.
        public var type: String
        /// ffprobe's codec name (`av1`, `hevc`, `h264`, `vp9`, `webp`, `mjpeg`, `png`), or nil
        /// for the page and the player.
        public var codec: String?
        public var bitDepth: Int?
        public var bytes: Int
        /// The encoded size; a stacked-alpha file is twice the height of what it shows.
        public var width: Int?
        public var height: Int?
        /// Against the 16-bit, dither-off, full-size render of the same instants, after a
        /// bilinear upscale to the display size: PSNR in dB and the largest error in
        /// 8-bit levels, over every channel (premultiplied, as `compare` measures).
        public var psnr: Double?
        public var largestError: Double?

        public init(file: String, role: String, type: String, codec: String? = nil, bitDepth: Int? = nil, bytes: Int,
                    width: Int? = nil, height: Int? = nil, psnr: Double? = nil, largestError: Double? = nil) {
            self.file = file
            self.role = role
            self.type = type
            self.codec = codec
            self.bitDepth = bitDepth
            self.bytes = bytes
            self.width = width
            self.height = height
            self.psnr = psnr.map { ($0 * 100).rounded() / 100 }
            self.largestError = largestError.map { ($0 * 1000).rounded() / 1000 }
        }
    }

    /// The tool that wrote the bundle, with its version.
    public var generator: String
    public var displayWidth: Int
    public var displayHeight: Int
    public var encodedWidth: Int
    public var encodedHeight: Int
    public var fps: Double
    public var frames: Int
    public var transparent: Bool
    /// The instants, in seconds, that `psnr` and `largestError` were measured at.
    public var measuredAt: [Double]
    public var files: [File]

    public init(generator: String, displayWidth: Int, displayHeight: Int, encodedWidth: Int, encodedHeight: Int,
                fps: Double, frames: Int, transparent: Bool, measuredAt: [Double], files: [File]) {
        self.generator = generator
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.encodedWidth = encodedWidth
        self.encodedHeight = encodedHeight
        self.fps = fps
        self.frames = frames
        self.transparent = transparent
        self.measuredAt = measuredAt
        self.files = files
    }

    /// The manifest as pretty-printed JSON with sorted keys: the same bundle gives the
    /// same bytes.
    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A lossless file's PSNR is infinite, which JSON has no number for.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        // With non-finite numbers spelled out, every field encodes: this cannot throw.
        return Array(try! encoder.encode(self)) + [0x0A]
    }
}
