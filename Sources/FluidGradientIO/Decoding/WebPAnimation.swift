import CWebPCodec
import FluidGradient

/// A WebP file, still or animated, decoded by libwebp's demux API: each frame as the
/// canvas shows it once the frame's blend and dispose rules are applied (on a
/// transparent canvas, as browsers do), with straight alpha.
final class WebPAnimation: TimedFrames {
    let path: String
    let width: Int
    let height: Int
    let durations: [Double]
    /// Display P3 where the file's ICC profile is Display P3's, else sRGB.
    let colorSpace: ColorSpace
    /// The file, which the decoder reads in place for its whole life.
    private let file: PinnedFile
    private let handle: OpaquePointer

    /// Reads and opens `path`.
    ///
    /// - Throws: a ``DecodeError`` naming the file when it cannot be read, is not WebP, ends
    ///   early, or is over 64 Mpixels.
    init(path: String) throws {
        self.path = path
        file = try PinnedFile(path)
        var info = fg_webp_info()
        var message = [CChar](repeating: 0, count: Int(FG_WEBP_MESSAGE_SIZE))
        guard let opened = fg_webp_open(file.bytes, file.count, &info, &message) else {
            throw DecodeError.cannotDecode(path: path, message: cMessage(message))
        }
        handle = opened
        assert(info.width > 0 && info.height > 0 && info.frame_count > 0, "libwebp opened an empty canvas")
        (width, height) = (Int(info.width), Int(info.height))
        durations = (0..<info.frame_count).map { Double(fg_webp_frame_duration(opened, $0)) / 1000 }
        let bytes = Array(UnsafeBufferPointer(start: file.bytes, count: file.count))
        colorSpace = WebPColorProfile.profile(in: bytes).flatMap(ICCProfile.colorSpace(of:)) ?? .srgb
    }

    deinit { fg_webp_close(handle) }

    func next() throws -> FrameSamples? {
        var pixels: UnsafePointer<UInt8>?
        var message = [CChar](repeating: 0, count: Int(FG_WEBP_MESSAGE_SIZE))
        switch fg_webp_next(handle, &pixels, &message) {
        case 0: return nil
        case 1:
            guard let pixels else { preconditionFailure("libwebp returned a frame without pixels") }
            let samples = UnsafeBufferPointer(start: pixels, count: 4 * width * height).map(UInt16.init)
            return FrameSamples(
                width: width, height: height, channels: 4, bitDepth: 8, samples: samples, colorSpace: colorSpace)
        default: throw DecodeError.cannotDecode(path: path, message: cMessage(message))
        }
    }
}
