/// Y′CbCr in limited ("TV") range, 8-bit, with the luma weights of a ``YUVMatrix``:
/// Y′ = Kr R + Kg G + Kb B, Y = 16 + 219·Y′, Cb = 128 + 224·(B − Y′)/(2 − 2Kb),
/// Cr = 128 + 224·(R − Y′)/(2 − 2Kr), on gamma-encoded R, G, B in 0...1 (BT.709:
/// Kr 0.2126, Kb 0.0722). Values are returned before rounding. The 10-bit codes are these
/// times 4 (Y = 64 + 876·Y′, Cb and Cr about 512).
package enum YUV {
    /// One matrix's constants, written out so that the arithmetic is the same operations
    /// in the same order for every matrix.
    package struct Weights: Sendable {
        let red: Float, green: Float, blue: Float
        /// 2 − 2Kb and 2 − 2Kr.
        let blueDivisor: Float, redDivisor: Float

        static let bt709 = Weights(red: 0.2126, green: 0.7152, blue: 0.0722, blueDivisor: 1.8556, redDivisor: 1.5748)
        static let bt601 = Weights(red: 0.299, green: 0.587, blue: 0.114, blueDivisor: 1.772, redDivisor: 1.402)
    }

    /// The 10-bit code of an 8-bit level: `⌊4·level + ½⌋`, clamped to 0...1023.
    @inline(__always)
    package static func tenBitCode(_ level: Float) -> UInt16 {
        UInt16(min(max(4 * level + 0.5, 0), 1023))
    }

    @inline(__always)
    package static func luma(_ rgb: SIMD4<Float>, _ weights: Weights = .bt709) -> Float {
        16 + 219 * (weights.red * rgb.x + weights.green * rgb.y + weights.blue * rgb.z)
    }

    @inline(__always)
    package static func chroma(_ rgb: SIMD4<Float>, _ weights: Weights = .bt709) -> (cb: Float, cr: Float) {
        let y = weights.red * rgb.x + weights.green * rgb.y + weights.blue * rgb.z
        return (128 + 224 * (rgb.z - y) / weights.blueDivisor, 128 + 224 * (rgb.x - y) / weights.redDivisor)
    }
}
