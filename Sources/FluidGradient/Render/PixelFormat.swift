/// The byte layouts raw frames can be written in (`--pixel-format`).
public enum PixelFormat: String, CaseIterable, Sendable {
    /// 8-bit R, G, B, A, straight alpha.
    case rgba
    /// 8-bit R, G, B.
    case rgb24
    /// 16-bit little-endian R, G, B, A, straight alpha.
    case rgba64le
    /// 16-bit little-endian R, G, B.
    case rgb48le
    /// 8-bit planar Y, then Cb, then Cr at half width and height: BT.709, limited range.
    case yuv420p
    /// `yuv420p` at 10 bits, never dithered: each code (Y 64...940, Cb and Cr 64...960)
    /// in the low bits of a 16-bit little-endian word.
    case yuv420p10le

    package var hasAlpha: Bool { self == .rgba || self == .rgba64le }
    /// Bits per stored sample: 16 for the 16-bit formats and for the 10-bit codes held in 16-bit words.
    package var bitDepth: Int { (self == .rgba64le || self == .rgb48le || self == .yuv420p10le) ? 16 : 8 }
    /// Whether this is planar Y′CbCr with 4:2:0 chroma (see ``YUV``).
    package var isYUV420: Bool { self == .yuv420p || self == .yuv420p10le }

    /// Bytes per pixel of the packed formats; nil for planar ones.
    package var bytesPerPixel: Int? {
        switch self {
        case .rgba: return 4
        case .rgb24: return 3
        case .rgba64le: return 8
        case .rgb48le: return 6
        case .yuv420p, .yuv420p10le: return nil
        }
    }

    package func byteCount(width: Int, height: Int) -> Int {
        if let bytesPerPixel { return width * height * bytesPerPixel }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        return (width * height + 2 * chromaWidth * chromaHeight) * bitDepth / 8
    }

    /// The packed format for an output of this depth, with or without alpha.
    package static func packed(depth: Int, alpha: Bool) -> PixelFormat {
        switch (depth, alpha) {
        case (16, true): return .rgba64le
        case (16, false): return .rgb48le
        case (_, true): return .rgba
        case (_, false): return .rgb24
        }
    }
}
