import FluidGradient
import Foundation

/// The bundle's `manifest.json`: every file, what it is for, and how close it comes to
/// the full-size render, so a build step or a reviewer can choose and check without
/// decoding anything.
package struct BundleManifest: Codable, Sendable, Equatable {
    /// One file of the bundle.
    package struct File: Codable, Sendable, Equatable {
        /// The name inside the bundle directory.
        package var file: String
        /// `loop`, `stacked-alpha-loop`, `poster`, `player`, `page`, `grain-tile` or `grain-sprite`.
        package var role: String
        /// The MIME type, with the codecs parameter for a video.
        package var type: String
        /// ffprobe's codec name (`av1`, `hevc`, `h264`, `vp9`, `webp`, `mjpeg`, `png`), or nil
        /// for the page and the player.
        package var codec: String?
        package var bitDepth: Int?
        package var bytes: Int
        /// The encoded size; a stacked-alpha file holds two padded halves (``StackedAlpha``).
        package var width: Int?
        package var height: Int?
        /// Against the 16-bit, dither-off, full-size render of the same instants, after a
        /// bilinear upscale to the display size: PSNR in dB and the largest error in
        /// 8-bit levels, over every channel (premultiplied, as `compare` measures).
        package var psnr: Double?
        package var largestError: Double?
        /// The most banding the file adds at any measured instant: its CAMBI-like index less the
        /// reference's (``BandingDifference``), flagged above ``BandingDifference/threshold``.
        package var banding: Double?
        /// A loop's rate: the encoder's constant rate factor.
        package var crf: Int?
        /// How the rate was chosen: `searched` (the fewest bytes that met the bar on an
        /// excerpt, ``RateSearch``) or `given` (the user's).
        package var rateChoice: String?

        package init(
            file: String, role: String, type: String, codec: String? = nil, bitDepth: Int? = nil, bytes: Int,
            width: Int? = nil, height: Int? = nil, psnr: Double? = nil, largestError: Double? = nil,
            banding: Double? = nil, crf: Int? = nil, rateChoice: String? = nil
        ) {
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
            self.banding = banding.map { ($0 * 1000).rounded() / 1000 }
            self.crf = crf
            self.rateChoice = rateChoice
        }
    }

    /// The grain the page lays over the loop (DESIGN section 12): the preset's, the cell in
    /// display pixels, and its files (``BundleGrain``).
    package struct GrainLayer: Codable, Sendable, Equatable {
        package var amount: Double
        package var size: Double
        package var cellPixels: Double
        package var animated: Bool
        package var mono: Bool
        /// Phase 0's 256×256 tile.
        package var tile: String
        /// Animated grain's phases, stacked, each `spriteCells` square.
        package var sprite: String?
        package var spriteCells: Int?
    }

    /// The tool that wrote the bundle, with its version.
    package var generator: String
    package var displayWidth: Int
    package var displayHeight: Int
    package var encodedWidth: Int
    package var encodedHeight: Int
    package var fps: Double
    package var frames: Int
    package var transparent: Bool
    /// `display-p3` for a Display P3 bundle, whose every file says so; absent for sRGB.
    package var colorSpace: String?
    /// The instants, in seconds, that `psnr` and `largestError` were measured at.
    package var measuredAt: [Double]
    package var files: [File]
    /// Absent without grain, so such a manifest is what it was.
    package var grain: GrainLayer?

    package init(
        generator: String, displayWidth: Int, displayHeight: Int, encodedWidth: Int, encodedHeight: Int,
        fps: Double, frames: Int, transparent: Bool, colorSpace: ColorSpace = .srgb, measuredAt: [Double],
        files: [File], grain: GrainLayer? = nil
    ) {
        self.generator = generator
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.encodedWidth = encodedWidth
        self.encodedHeight = encodedHeight
        self.fps = fps
        self.frames = frames
        self.transparent = transparent
        self.colorSpace = colorSpace == .srgb ? nil : colorSpace.rawValue
        self.measuredAt = measuredAt
        self.files = files
        self.grain = grain
    }

    /// The manifest as pretty-printed JSON with sorted keys: the same bundle gives the
    /// same bytes.
    package func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A lossless file's PSNR is infinite, which JSON has no number for.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        // With non-finite numbers spelled out, every field encodes: this cannot throw.
        return Array(try! encoder.encode(self)) + [0x0A]
    }
}
