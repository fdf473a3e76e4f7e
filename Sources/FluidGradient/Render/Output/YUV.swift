/// BT.709 Y′CbCr in limited ("TV") range, 8-bit: Y′ = 0.2126 R + 0.7152 G + 0.0722 B,
/// Y = 16 + 219·Y′, Cb = 128 + 224·(B − Y′)/1.8556, Cr = 128 + 224·(R − Y′)/1.5748,
/// on gamma-encoded R, G, B in 0...1. Values are returned before rounding. The 10-bit
/// codes are these times 4 (Y = 64 + 876·Y′, Cb and Cr about 512).
package enum YUV {
    /// The 10-bit code of an 8-bit level: `⌊4·level + ½⌋`, clamped to 0...1023.
    @inline(__always)
    package static func tenBitCode(_ level: Float) -> UInt16 {
        UInt16(min(max(4 * level + 0.5, 0), 1023))
    }

    @inline(__always)
    package static func luma(_ rgb: SIMD4<Float>) -> Float {
        16 + 219 * (0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z)
    }

    @inline(__always)
    package static func chroma(_ rgb: SIMD4<Float>) -> (cb: Float, cr: Float) {
        let y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
        return (128 + 224 * (rgb.z - y) / 1.8556, 128 + 224 * (rgb.x - y) / 1.5748)
    }
}
