/// Ordered dithering thresholds: a pure function of pixel position and frame index
/// (DESIGN section 9), so a dithered PNG can serve as a golden file.
///
/// The pattern is the 64×64 Bayer matrix, whose 4096 thresholds `(rank + ½)/4096`
/// are spread evenly over [0, 1): quantising `v` as `⌊255·v + t⌋` rounds up with
/// probability equal to the fraction, so the average over any 64×64 tile equals `v`
/// to within 1/4096 of a level. Each channel reads the tile at its own offset, and
/// each frame moves the tile by an offset hashed from its index.
package enum Dither {
    package static let tileSize = 64

    /// `thresholds[y·64 + x]`, one lane per channel (R, G, B, A).
    package static let thresholds: [SIMD4<Float>] = {
        let channelOffsets: [(x: Int, y: Int)] = [(0, 0), (37, 21), (21, 45), (45, 13)]
        return (0..<(tileSize * tileSize)).map { index in
            let x = index % tileSize, y = index / tileSize
            var lanes = SIMD4<Float>()
            for (lane, offset) in channelOffsets.enumerated() {
                lanes[lane] = bayerThreshold(x: x + offset.x, y: y + offset.y)
            }
            return lanes
        }
    }()

    /// The 64×64 Bayer threshold at `(x, y)` (taken modulo 64): each bit level k of
    /// x and y contributes the 2×2 Bayer digit `2·(x_k ⊕ y_k) + y_k`, finest bits most significant.
    package static func bayerThreshold(x: Int, y: Int) -> Float {
        var rank = 0
        for bit in 0..<6 {
            let xb = (x >> bit) & 1, yb = (y >> bit) & 1
            rank |= (2 * (xb ^ yb) + yb) << (2 * (5 - bit))
        }
        return (Float(rank) + 0.5) / 4096
    }

    /// The thresholds with each tile row padded by its first 16 entries, so a run of up
    /// to 16 reads from any column never wraps: `paddedThresholds[row·80 + column]`.
    static let paddedThresholds: [SIMD4<Float>] = (0..<(tileSize * 80)).map { index in
        thresholds[(index / 80) * tileSize + (index % 80) % tileSize]
    }

    /// Each channel of ``paddedThresholds`` on its own, for single-component planes:
    /// channel `c` starts at `c·paddedLaneCount`.
    static let paddedLaneThresholds: [Float] = (0..<4).flatMap { lane in paddedThresholds.map { $0[lane] } }
    static let paddedLaneCount = tileSize * 80

    /// ½ everywhere, laid out like ``paddedThresholds``: rounding to nearest, no dither.
    static let paddedHalf = [SIMD4<Float>](repeating: SIMD4(repeating: 0.5), count: 80)
    static let paddedLaneHalf = [Float](repeating: 0.5, count: 80)

    /// Where frame `index` starts reading the tile.
    package static func offset(frame index: Int) -> (x: Int, y: Int) {
        let hash = SplitMix64.mix(UInt64(bitPattern: Int64(index)) &+ 0x5DEE_CE66_D1CE_4E5B)
        return (Int(hash & 63), Int((hash >> 6) & 63))
    }
}
