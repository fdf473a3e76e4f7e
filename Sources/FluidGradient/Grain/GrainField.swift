/// The grain of one frame size: DESIGN section 12's noise field, exactly.
///
/// The seeding, which a page, a test or another implementation can reproduce:
///
/// - Pixel `(i, j)` lies in cell `(⌊i / c⌋ mod 256, ⌊j / c⌋ mod 256)`, with
///   `c = size × pointScale` pixels computed in `Double`, and `⌊i / c⌋` the floor of the
///   `Double` quotient.
/// - Frame `k` shows phase `k mod 8` (taken non-negative) when the grain is animated, else
///   phase 0.
/// - The cell `(x, y)` of phase `p` has the generator
///   `SplitMix64(seed: presetSeed, stream: 3, p, y, x)` (``SplitMix64/init(seed:stream:)``:
///   the seed mixed, then each of 3, `p`, `y`, `x` folded in, in that order). Its first
///   ``SplitMix64/nextUnit()`` is red's `u`, the second green's and the third blue's; mono
///   grain uses the first for all three. (Stream 3 is grain's own: the blobs' streams start
///   with their layer, 0 or 1, and the loop's phases use 2.)
/// - The layer's 8-bit value is `n = round(255·(0.5 + amount·(u − 0.5)))`, evaluated in
///   `Double` and rounded to the nearest integer, halves up (Swift's `rounded()`,
///   JavaScript's `Math.round`, on these values of 0...255), and `N = n / 255`.
package struct GrainField: Hashable, Sendable {
    /// The cells of one tile along each axis: the field repeats every 256 cells.
    package static let tileCells = 256
    /// The phases of animated grain.
    package static let phaseCount = 8
    /// The generator stream that grain's draws start with.
    package static let stream: UInt64 = 3

    package var amount: Double
    /// The cell side `c`, in pixels.
    package var cellSize: Double
    package var animated: Bool
    package var mono: Bool
    /// The preset's seed.
    package var seed: UInt64

    package init(amount: Double, cellSize: Double, animated: Bool, mono: Bool, seed: UInt64) {
        self.amount = amount
        self.cellSize = cellSize
        self.animated = animated
        self.mono = mono
        self.seed = seed
    }

    /// The field of `grain` for a frame with point scale `pointScale` and seed `seed`, or nil
    /// when the grain changes nothing.
    package init?(_ grain: Grain, pointScale: Double, seed: UInt64) {
        guard grain.isOn else { return nil }
        self.init(
            amount: grain.amount, cellSize: grain.size * pointScale, animated: grain.animated, mono: grain.mono,
            seed: seed)
    }

    /// How many different phases frames show: 8 for animated grain, else 1.
    package var phases: Int { animated ? GrainField.phaseCount : 1 }

    /// The phase frame `index` shows.
    package func phase(frame index: Int) -> Int {
        animated ? ((index % GrainField.phaseCount) + GrainField.phaseCount) % GrainField.phaseCount : 0
    }

    /// The cell, 0..<256, that pixel `index` lies in along an axis.
    package func cell(_ index: Int) -> Int {
        let whole = (Double(index) / cellSize).rounded(.down)
        // A side ≤ 16384 pixels and c above 10⁻⁶ (a point scale shrunk for a small size) keep
        // the quotient far inside Int's range.
        return Int(whole).quotientAndRemainder(dividingBy: GrainField.tileCells).remainder
    }

    /// The uniform draws `u` of cell `(x, y)` in phase `phase`, for red, green and blue;
    /// mono grain repeats red's.
    package func uniforms(cellX x: Int, cellY y: Int, phase: Int) -> SIMD3<Double> {
        var generator = SplitMix64(seed: seed, stream: GrainField.stream, UInt64(phase), UInt64(y), UInt64(x))
        let red = generator.nextUnit()
        if mono { return SIMD3(repeating: red) }
        let green = generator.nextUnit()
        return SIMD3(red, green, generator.nextUnit())
    }

    /// The layer's 8-bit value `n` for a draw `u`: `round(255·(0.5 + amount·(u − 0.5)))`.
    package static func level(_ u: Double, amount: Double) -> Int {
        Int((255 * (0.5 + amount * (u - 0.5))).rounded())
    }

    /// The layer's 8-bit values of cell `(x, y)` in phase `phase`, red, green and blue.
    package func levels(cellX x: Int, cellY y: Int, phase: Int) -> SIMD3<Int> {
        let u = uniforms(cellX: x, cellY: y, phase: phase)
        return SIMD3(
            GrainField.level(u.x, amount: amount), GrainField.level(u.y, amount: amount),
            GrainField.level(u.z, amount: amount))
    }

    /// One phase's tile at `c = 1`: the layer's 8-bit values, 256 rows of 256 cells, each
    /// cell's red, green and blue in turn (the same three for mono grain).
    package func tile(phase: Int) -> [UInt8] {
        let side = GrainField.tileCells
        var bytes = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let n = levels(cellX: x, cellY: y, phase: phase)
                for lane in 0..<3 { bytes[(y * side + x) * 3 + lane] = UInt8(n[lane]) }
            }
        }
        return bytes
    }

    /// The overlay of DESIGN section 4 with the layer as source and the frame as backdrop:
    /// `2·N·C` where `C ≤ 0.5`, else `1 − 2·(1 − N)·(1 − C)`.
    package static func overlay(_ color: Double, layer n: Double) -> Double {
        color <= 0.5 ? 2 * n * color : 1 - 2 * (1 - n) * (1 - color)
    }
}
