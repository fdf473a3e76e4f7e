import FluidGradient
import Foundation
import Testing

/// DESIGN section 12's noise field: the cells, the phases, the seeding and the layer's
/// values, each against the definition's words written out here.
@Suite struct GrainFieldTests {
    static func field(
        amount: Double = 0.08, cell: Double = 1, animated: Bool = false, mono: Bool = true, seed: UInt64 = 7
    ) -> GrainField {
        GrainField(amount: amount, cellSize: cell, animated: animated, mono: mono, seed: seed)
    }

    /// SplitMix64's mixer, written out from the published algorithm.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The documented seeding by hand: the seed mixed, then 3, the phase, the cell's y and
    /// x folded in; then the generator's outputs, top 53 bits over 2⁵³.
    static func draws(seed: UInt64, phase: UInt64, x: UInt64, y: UInt64) -> [Double] {
        var state = mix(seed)
        for part in [3, phase, y, x] { state = mix(state ^ (part &* 0x9E37_79B9_7F4A_7C15)) }
        return (0..<3).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            return Double(mix(state) >> 11) / 9_007_199_254_740_992
        }
    }

    @Test func theDrawsAreTheDocumentedSeeding() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<200 {
            let seed = generator.next() >> 11, phase = Int(generator.next() % 8)
            let x = Int(generator.next() % 256), y = Int(generator.next() % 256)
            let expected = Self.draws(seed: seed, phase: UInt64(phase), x: UInt64(x), y: UInt64(y))
            let colour = Self.field(mono: false, seed: seed).uniforms(cellX: x, cellY: y, phase: phase)
            #expect([colour.x, colour.y, colour.z] == expected)
            let mono = Self.field(mono: true, seed: seed).uniforms(cellX: x, cellY: y, phase: phase)
            #expect([mono.x, mono.y, mono.z] == [expected[0], expected[0], expected[0]])
        }
    }

    /// Values a page or another implementation can check its own against.
    @Test func pinnedLayerValues() {
        let field = Self.field(amount: 0.5, mono: false, seed: 7)
        #expect(field.levels(cellX: 0, cellY: 0, phase: 0) == SIMD3(PinnedGrain.seven00))
        #expect(field.levels(cellX: 255, cellY: 1, phase: 7) == SIMD3(PinnedGrain.seven71))
    }

    /// `n = round(255·(0.5 + amount·(u − 0.5)))`, halves up; 0 and 1 reach the ends.
    @Test func theLayersLevels() {
        #expect(GrainField.level(0.5, amount: 0.08) == 128)  // 127.5 rounds up
        #expect(GrainField.level(0.5, amount: 1) == 128)
        #expect(GrainField.level(0, amount: 1) == 0)
        #expect(GrainField.level(0x1.fffffffffffffp-1, amount: 1) == 255)
        #expect(GrainField.level(0, amount: 0.08) == 117)  // 255·0.46 = 117.3
        #expect(GrainField.level(0x1.fffffffffffffp-1, amount: 0.08) == 138)  // 255·0.54 = 137.7, less a hair
        var generator = SplitMix64(seed: 11)
        for _ in 0..<1000 {
            let u = generator.nextUnit(), amount = generator.nextUnit()
            let exact = 255 * (0.5 + amount * (u - 0.5))
            let n = GrainField.level(u, amount: amount)
            #expect(abs(Double(n) - exact) <= 0.5)
        }
    }

    /// Pixel `(i, j)` lies in cell `(⌊i / c⌋ mod 256, ⌊j / c⌋ mod 256)`.
    @Test func cellsOfPixels() {
        let one = Self.field(cell: 1), half = Self.field(cell: 0.5), wide = Self.field(cell: 1.5)
        #expect((0..<600).map(one.cell) == (0..<600).map { $0 % 256 })
        #expect([0, 1, 2, 127, 128, 200].map(half.cell) == [0, 2, 4, 254, 0, 144])
        #expect([0, 1, 2, 3, 4, 383, 384, 385].map(wide.cell) == [0, 0, 1, 2, 2, 255, 0, 0])
        var generator = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let c = 0.125 + 7.875 * generator.nextUnit(), i = Int(generator.next() % 16_384)
            #expect(Self.field(cell: c).cell(i) == Int((Double(i) / c).rounded(.down)) % 256)
        }
    }

    @Test func framesShowTheirPhases() {
        let still = Self.field(animated: false), moving = Self.field(animated: true)
        #expect((0..<20).map(still.phase(frame:)) == Array(repeating: 0, count: 20))
        #expect((0..<20).map(moving.phase(frame:)) == (0..<20).map { $0 % 8 })
        #expect([-1, -8, -9].map(moving.phase(frame:)) == [7, 0, 7])
        #expect(still.phases == 1 && moving.phases == 8)
    }

    /// Static grain is animated grain's phase 0, and the phases differ from each other.
    @Test func phasesAndStillGrain() {
        let still = Self.field(animated: false).tile(phase: 0)
        let moving = Self.field(animated: true)
        #expect(moving.tile(phase: 0) == still)
        let tiles = (0..<8).map { moving.tile(phase: $0) }
        #expect(Set(tiles).count == 8)
    }

    /// A tile's statistics: mean ½, spread `amount`, no correlation between neighbours or
    /// (for per-channel grain) between channels. 65536 cells: the mean of u has a standard
    /// error of 0.0011, and a correlation one of 0.004; the bounds are 5 of those.
    @Test(arguments: [0.08, 0.5])
    func aTilesStatistics(amount: Double) {
        let field = Self.field(amount: amount, mono: false, seed: 42)
        let tile = field.tile(phase: 3).map { Double($0) / 255 }
        func lane(_ l: Int) -> [Double] { stride(from: l, to: tile.count, by: 3).map { tile[$0] } }
        func correlation(_ a: [Double], _ b: [Double]) -> Double {
            let ma = a.reduce(0, +) / Double(a.count), mb = b.reduce(0, +) / Double(b.count)
            let cov = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
            let va = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +), vb = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
            return cov / (va * vb).squareRoot()
        }
        let red = lane(0), green = lane(1)
        let mean = red.reduce(0, +) / Double(red.count)
        let std = (red.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(red.count)).squareRoot()
        let standardError = 0.0011 * amount
        #expect(abs(mean - 0.5) < 5 * standardError + 0.5 / 255 / 16)
        // Uniform u spread by `amount`: std amount/√12, plus the 8-bit rounding's 1/(255√12).
        let expected = (amount * amount / 12 + 1 / (12 * 255 * 255)).squareRoot()
        #expect(abs(std - expected) < 0.02 * expected)
        let right = (0..<red.count).map { (index: Int) -> Double in
            let row = index / 256, column = (index % 256 + 1) % 256
            return red[row * 256 + column]
        }
        #expect(abs(correlation(red, right)) < 0.02)
        #expect(abs(correlation(red, green)) < 0.02)
        let low = 0.5 - amount / 2 - 0.5 / 255, high = 0.5 + amount / 2 + 0.5 / 255
        #expect(red.min()! >= low && red.max()! <= high)
    }

    /// The overlay with the layer as source and the frame as backdrop.
    @Test func theOverlay() {
        #expect(GrainField.overlay(0.25, layer: 0.6) == 2 * 0.6 * 0.25)
        #expect(GrainField.overlay(0.75, layer: 0.6) == 1 - 2 * 0.4 * 0.25)
        #expect(GrainField.overlay(0.3, layer: 0.5) == 0.3)
        #expect(GrainField.overlay(0, layer: 0.9) == 0)
        #expect(GrainField.overlay(1, layer: 0.1) == 1)
    }
}

/// Two cells' layer values for seed 7, amount 0.5, per-channel grain: cell (0, 0) of
/// phase 0, and cell (255, 1) of phase 7, red, green, blue, computed by the documented
/// seeding in Python (`Scripts/grain-tile.py --cell`).
enum PinnedGrain {
    static let seven00 = [143, 65, 85]
    static let seven71 = [123, 134, 115]
}
