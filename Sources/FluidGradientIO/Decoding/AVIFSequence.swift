import CAVIFCodec
import FluidGradient

/// An AVIF file, a still image or an image sequence, decoded by libavif with its alpha
/// plane (ffmpeg 5.1 drops a still image's alpha item and gives a sequence's alpha track as
/// a stream of its own). Colour is converted to RGB as the file's CICP tags say, by
/// libavif's own conversion; 10- and 12-bit files come out at 16 bits.
final class AVIFSequence: TimedFrames {
    let path: String
    let width: Int
    let height: Int
    let durations: [Double]
    private let bitDepth: Int
    /// Display P3 where the CICP tags name its primaries (12), else sRGB.
    private let colorSpace: ColorSpace
    /// The file, which the decoder reads in place for its whole life.
    private let file: PinnedFile
    private let handle: OpaquePointer

    /// Reads and opens `path`.
    ///
    /// - Throws: a ``DecodeError`` naming the file when it cannot be read, is not AVIF, ends
    ///   early, or is over 64 Mpixels.
    init(path: String) throws {
        self.path = path
        file = try PinnedFile(path)
        var info = fg_avif_info()
        var message = [CChar](repeating: 0, count: Int(FG_AVIF_MESSAGE_SIZE))
        guard let opened = fg_avif_open(file.bytes, file.count, &info, &message) else {
            throw DecodeError.cannotDecode(path: path, message: cMessage(message))
        }
        handle = opened
        assert(info.width > 0 && info.height > 0 && info.frame_count > 0, "libavif opened an empty image")
        assert(info.bit_depth == 8 || info.bit_depth == 16, "libavif's samples are 8 or 16 bits")
        (width, height, bitDepth) = (Int(info.width), Int(info.height), Int(info.bit_depth))
        colorSpace = info.color_primaries == 12 ? .displayP3 : .srgb
        durations = (0..<info.frame_count).map { fg_avif_frame_duration(opened, $0) }
    }

    deinit { fg_avif_close(handle) }

    func next() throws -> FrameSamples? {
        var samples = [UInt16](repeating: 0, count: 4 * width * height)
        var message = [CChar](repeating: 0, count: Int(FG_AVIF_MESSAGE_SIZE))
        let status = samples.withUnsafeMutableBufferPointer { fg_avif_next(handle, $0.baseAddress, &message) }
        switch status {
        case 0: return nil
        case 1:
            return FrameSamples(
                width: width, height: height, channels: 4, bitDepth: bitDepth, samples: samples, colorSpace: colorSpace)
        default: throw DecodeError.cannotDecode(path: path, message: cMessage(message))
        }
    }
}
