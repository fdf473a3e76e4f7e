import FluidGradientIO
import Foundation

/// An animated WebP read chunk by chunk (Google's WebP container specification): what
/// the tests check of its animation, and its frames decoded by ffmpeg, which reads a
/// still WebP but not an animated one.
struct WebPFile {
    struct Frame {
        var coversCanvas: Bool
        /// The blending bit: "do not blend", so the frame replaces the canvas.
        var replacesCanvas: Bool
        var duration: Int
        /// The frame's own chunks (ALPH, VP8 or VP8L), a still image's data.
        var chunks: [UInt8]
        var hasAlpha: Bool
    }

    var canvas: (width: Int, height: Int) = (0, 0)
    var hasAlphaFlag = false
    var loopCount = -1
    var frames: [Frame] = []

    init(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Self.littleEndian(bytes, offset + 4, 4)
            let content = offset + 8
            guard content + size <= bytes.count else { throw CocoaError(.fileReadCorruptFile) }
            switch type {
            case "VP8X":
                hasAlphaFlag = bytes[content] & 0x10 != 0
                canvas = (Self.littleEndian(bytes, content + 4, 3) + 1, Self.littleEndian(bytes, content + 7, 3) + 1)
            case "ANIM":
                loopCount = Self.littleEndian(bytes, content + 4, 2)
            case "ANMF":
                let width = Self.littleEndian(bytes, content + 6, 3) + 1
                let height = Self.littleEndian(bytes, content + 9, 3) + 1
                let chunks = Array(bytes[(content + 16)..<(content + size)])
                frames.append(
                    Frame(
                        coversCanvas: Self.littleEndian(bytes, content, 6) == 0 && width == canvas.width
                            && height == canvas.height,
                        replacesCanvas: bytes[content + 15] & 0b10 != 0,
                        duration: Self.littleEndian(bytes, content + 12, 3),
                        chunks: chunks, hasAlpha: chunks.starts(with: Array("ALPH".utf8))))
            default:
                break
            }
            offset = content + size + size % 2
        }
    }

    static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> Int {
        (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    static func littleEndianBytes(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Each frame as a still WebP: a VP8X header (with the alpha flag when it has an
    /// ALPH chunk) and its chunks.
    func still(_ frame: Frame) -> [UInt8] {
        let header =
            Array("VP8X".utf8) + Self.littleEndianBytes(10, 4) + [frame.hasAlpha ? 0x10 : 0, 0, 0, 0]
            + Self.littleEndianBytes(canvas.width - 1, 3) + Self.littleEndianBytes(canvas.height - 1, 3)
        let body = Array("WEBP".utf8) + header + frame.chunks
        return Array("RIFF".utf8) + Self.littleEndianBytes(body.count, 4) + body
    }

    /// Every frame decoded to 8-bit RGBA by ffmpeg, one after another. Lossy WebP is BT.601
    /// limited range, which ffmpeg's default conversion rounds about a level low against
    /// libwebp's own (what browsers use); accurate rounding and full chroma come within
    /// 2 levels of it, 0.2 on average.
    func decodedFrames(scratch: Scratch) throws -> Data {
        let path = scratch.file("frames.webp-pipe")
        try Data(frames.flatMap(still)).write(to: URL(fileURLWithPath: path))
        return toolOutput([
            "ffmpeg", "-v", "error", "-f", "webp_pipe", "-i", path,
            "-vf", "scale=in_color_matrix=bt601:in_range=tv:flags=accurate_rnd+full_chroma_int,format=rgba", "-f",
            "rawvideo", "-",
        ])
    }
}
