/// Adds an ICC profile to a WebP that ffmpeg wrote, which its webp muxer cannot: WebP
/// has no cICP, so a Display P3 WebP says so by an ICCP chunk (WebP container: the
/// extended format's VP8X chunk with its ICC flag, then ICCP, then the image data).
package enum WebPColorProfile {
    /// `bytes` with `profile` in an ICCP chunk. An extended WebP gets the ICC flag and the
    /// chunk after its VP8X; a simple one (a lone `VP8 ` or `VP8L` chunk) becomes extended,
    /// its canvas size read from the image's own header.
    ///
    /// - Parameters:
    ///   - profile: the ICC profile's bytes.
    ///   - bytes: the WebP file.
    /// - Returns: the file with the profile.
    /// - Throws: ``FinishingFailure`` for a file that is not a WebP, or whose first chunk
    ///   is none of VP8X, `VP8 ` and `VP8L`.
    package static func adding(_ profile: [UInt8], to bytes: [UInt8]) throws(FinishingFailure) -> [UInt8] {
        guard bytes.count >= 20, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { throw FinishingFailure.notWebP }
        let first = String(decoding: bytes[12..<16], as: UTF8.self)
        let firstSize = AnimatedWebP.littleEndian(bytes, at: 16, width: 4)
        guard 20 + firstSize <= bytes.count else { throw FinishingFailure.truncatedChunk(first) }
        let iccp = chunk("ICCP", profile)
        var body: [UInt8]
        switch first {
        case "VP8X":
            var header = Array(bytes[12..<(20 + firstSize + firstSize % 2)])
            header[8] |= 0x20  // the ICC profile flag
            body = header + iccp + bytes[(20 + firstSize + firstSize % 2)...]
        case "VP8 ", "VP8L":
            guard let size = canvasSize(bytes, kind: first, content: 20, count: firstSize) else {
                throw FinishingFailure.truncatedChunk(first)
            }
            // A lossless image says in its header (bit 28) whether it uses alpha.
            let usesAlpha = first == "VP8L" && AnimatedWebP.littleEndian(bytes, at: 21, width: 4) >> 28 & 1 == 1
            var vp8x: [UInt8] = [0x20 | (usesAlpha ? 0x10 : 0), 0, 0, 0]
            vp8x += littleEndian(size.width - 1, width: 3) + littleEndian(size.height - 1, width: 3)
            body = chunk("VP8X", vp8x) + iccp + bytes[12...]
        default:
            throw FinishingFailure.truncatedChunk(first)
        }
        return Array("RIFF".utf8) + littleEndian(4 + body.count, width: 4) + Array("WEBP".utf8) + body
    }

    /// The ICC profile of a WebP file's ICCP chunk, or nil without one.
    ///
    /// - Parameter bytes: the WebP file.
    /// - Returns: the profile's bytes.
    package static func profile(in bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8) else { return nil }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = AnimatedWebP.littleEndian(bytes, at: offset + 4, width: 4)
            guard offset + 8 + size <= bytes.count else { return nil }
            if bytes[offset..<offset + 4].elementsEqual("ICCP".utf8) {
                return Array(bytes[offset + 8..<offset + 8 + size])
            }
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// A chunk: its FourCC, its size, its data and a pad byte to an even size.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian(data.count, width: 4) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// A lossy frame's size from its key frame header (after the 3-byte frame tag and the
    /// start code, 14 bits each), a lossless one's from its header (after the signature).
    static func canvasSize(_ bytes: [UInt8], kind: String, content: Int, count: Int) -> (width: Int, height: Int)? {
        if kind == "VP8 " {
            guard count >= 10 else { return nil }
            let width = AnimatedWebP.littleEndian(bytes, at: content + 6, width: 2) & 0x3FFF
            let height = AnimatedWebP.littleEndian(bytes, at: content + 8, width: 2) & 0x3FFF
            return (width, height)
        }
        guard count >= 5, bytes[content] == 0x2F else { return nil }
        let bits = AnimatedWebP.littleEndian(bytes, at: content + 1, width: 4)
        return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    }

    static func littleEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
