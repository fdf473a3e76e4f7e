import FluidGradient
import Foundation
import Testing

/// The rasteriser finds each blob's cells in a grid row as two runs of columns, by
/// bisection; that must classify every cell exactly as testing each column does.
@Suite struct CellClassificationTests {
    /// Small blobs scattered over and beyond the frame: spans clamped at the edges, blobs
    /// narrower than a cell, blobs that reach the frame only from outside.
    static func scatteredSmallBlobs(seed: UInt64, width: Int, height: Int) -> Scene {
        var generator = SplitMix64(seed: seed)
        let blobs = (0..<24).map { _ in
            let center = SIMD2(-0.15 + 1.3 * generator.nextUnit(), -0.15 + 1.3 * generator.nextUnit())
            let radius = SIMD2(0.002 + 0.08 * generator.nextUnit(), 0.002 + 0.08 * generator.nextUnit())
            let color = RGBA(
                red: generator.nextUnit(), green: generator.nextUnit(), blue: generator.nextUnit(), alpha: 1)
            return Blob(color: color, center: center, radius: radius)
        }
        return Scene(base: blobs)
    }

    @Test(arguments: [(600, 400), (64, 64), (1600, 200), (200, 1600)], [0.3, 0.6, 0.95])
    func bisectionMatchesTestingEveryColumn(size: (Int, Int), exponent: Double) {
        let (width, height) = size
        let scene = randomScene(seed: UInt64(width + height), count: 8, highlights: 2, width: width, height: height)
        for edges in EdgeMode.allCases {
            let grid = WorkingGrid(spec: FrameSpec(width: width, height: height, blurExponent: exponent, edges: edges))
            let direct = RasterOptions(classifiesEveryColumn: true)
            for (name, scene) in [
                ("random scene", scene),
                ("small blobs", Self.scatteredSmallBlobs(seed: 7, width: width, height: height)),
            ] {
                let fast = grid.cellAverages(of: scene, edges: edges)
                let reference = grid.cellAverages(of: scene, edges: edges, options: direct)
                let differing = zip(fast, reference).filter { $0 != $1 }.count
                #expect(
                    differing == 0,
                    "\(name), \(width)x\(height), exponent \(exponent), \(edges): \(differing) cells differ")
            }
        }
    }
}
