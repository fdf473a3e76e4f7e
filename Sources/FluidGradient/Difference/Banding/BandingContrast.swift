/// The contrast of each smooth pixel with a neighbouring plateau: CAMBI's per-pixel
/// banding value at one scale.
///
/// Around each pixel of the smooth mask, a window's smooth pixels are counted by code.
/// With `p₀` pixels at the pixel's own code and `p_d` at the more common of the codes `d`
/// above and below (`d` 1 to 4), the value is the largest `d · p₀ · p_d / (p₀ + p_d)`
/// over the steps `d` that are visible at that code: two wide plateaus a small step apart,
/// which is what a false contour is. A smooth gradient spreads its pixels over many codes
/// and a flat area has no second plateau, so both stay low.
package enum BandingContrast {
    /// The steps considered, in 10-bit codes (a quarter of an 8-bit level to one level).
    package static let steps = 1...4

    /// Each pixel's value, 0 outside the mask.
    ///
    /// - Parameters:
    ///   - plane: the (mode-filtered) codes.
    ///   - mask: which pixels are smooth.
    ///   - radius: the window is `2·radius + 1` pixels square, clipped at the edges.
    ///   - visibleUpTo: for each step, the highest code at which it is visible.
    /// - Returns: `plane.width · plane.height` values, row by row.
    package static func values(of plane: LumaPlane, mask: [Bool], radius: Int, visibleUpTo: [Int]) -> [Float] {
        let width = plane.width, height = plane.height
        // Codes shifted by the largest step, so that code ± step never leaves the table.
        let shift = steps.upperBound, bins = 1024 + 2 * shift
        var histograms = [UInt16](repeating: 0, count: bins * width)
        var values = [Float](repeating: 0, count: width * height)
        plane.codes.withUnsafeBufferPointer { codes in
            mask.withUnsafeBufferPointer { mask in
                histograms.withUnsafeMutableBufferPointer { histograms in
                    /// Adds row `y`'s smooth pixels to the columns they reach, or removes them.
                    func update(row y: Int, adding: Bool) {
                        guard y >= 0, y < height else { return }
                        for x in 0..<width where mask[y * width + x] {
                            let base = (Int(codes[y * width + x]) + shift) * width
                            let columns = Swift.max(x - radius, 0)..<Swift.min(x + radius + 1, width)
                            if adding {
                                for column in columns { histograms[base + column] &+= 1 }
                            } else {
                                for column in columns { histograms[base + column] &-= 1 }
                            }
                        }
                    }
                    for y in 0..<radius { update(row: y, adding: true) }
                    for y in 0..<height {
                        update(row: y - radius - 1, adding: false)
                        update(row: y + radius, adding: true)
                        for x in 0..<width where mask[y * width + x] {
                            let code = Int(codes[y * width + x])
                            values[y * width + x] = value(
                                at: code, column: x, width: width, shift: shift, histograms: histograms,
                                visibleUpTo: visibleUpTo)
                        }
                    }
                }
            }
        }
        return values
    }

    /// One pixel's value from its column's histogram.
    @inline(__always)
    private static func value(
        at code: Int, column: Int, width: Int, shift: Int, histograms: UnsafeMutableBufferPointer<UInt16>,
        visibleUpTo: [Int]
    ) -> Float {
        let p0 = Float(histograms[(code + shift) * width + column])
        var best: Float = 0
        for step in steps where code <= visibleUpTo[step - 1] {
            let above = Float(histograms[(code + shift + step) * width + column])
            let below = Float(histograms[(code + shift - step) * width + column])
            let other = Swift.max(above, below)
            guard other > 0 else { continue }
            best = Swift.max(best, Float(step) * p0 * other / (p0 + other))
        }
        return best
    }
}
