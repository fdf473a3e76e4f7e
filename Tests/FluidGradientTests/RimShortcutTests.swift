import FluidGradient
import Foundation
import Testing

/// The rasteriser's shortcuts for cells one or two rims cross — the chord between a
/// rim's coverage 0 and 1, and the bilinear surface through four corners with the
/// coverages' product averaged — against averaging the composite over every sample.
/// Both are exact where they apply, and a pattern is let through only if the composite
/// at coverage ¼, ½ and ¾ (for two rims, at every quarter point of the square of
/// coverages) lies within 10⁻⁴ of the shortcut, so the cells
/// agree to about that (0.03 levels); leaving out the product term (the rims'
/// covariance) is off by far more.
@Suite struct RimShortcutTests {
    /// Each scene, and whether its cells take the shortcuts (where the overlay bends the
    /// composite off the chord, patterns must fall back to sampling).
    static let scenes: [(name: String, scene: Scene, takesShortcuts: Bool)] = {
        var generator = SplitMix64(seed: 5)
        let translucent = Scene(
            base: (0..<6).map { _ in randomTranslucentBlob(&generator) },
            highlights: (0..<3).map { _ in randomTranslucentBlob(&generator) })
        return [
            (
                "random scene with overlay highlights",
                randomScene(seed: 21, count: 8, highlights: 3, width: 600, height: 400), true
            ),
            ("translucent blobs under translucent highlights", translucent, true),
            (
                "a base rim under a highlight, across the overlay's switch",
                overlaySwitch, false
            ),
        ]
    }()

    /// Dark grey under a light grey blob whose rim runs under an opaque highlight: across
    /// the rim the backdrop goes from 0.2 to 0.8, so the overlay switches from multiplying
    /// to screening at coverage ½ and the composite leaves the chord between coverage 0
    /// and 1. Only the chord's check sees it.
    static let overlaySwitch = Scene(
        base: [
            Blob(color: RGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 1), center: SIMD2(0.5, 0.5), radius: SIMD2(1, 1)),
            Blob(
                color: RGBA(red: 0.8, green: 0.8, blue: 0.8, alpha: 1), center: SIMD2(0.5, 0.5),
                radius: SIMD2(0.3, 0.35)),
        ],
        highlights: [
            Blob(color: RGBA(red: 0.7, green: 0.4, blue: 0.6, alpha: 1), center: SIMD2(0.5, 0.5), radius: SIMD2(1, 1))
        ])

    @Test(arguments: RimShortcutTests.scenes.indices, [0.4, 0.6])
    func shortcutsMatchSamplingEveryRim(index: Int, exponent: Double) {
        let scene = Self.scenes[index].scene
        let grid = WorkingGrid(spec: FrameSpec(width: 600, height: 400, blurExponent: exponent))
        let fast = grid.cellAverages(of: scene, edges: .bleed)
        let sampled = grid.cellAverages(of: scene, edges: .bleed, options: RasterOptions(samplesEveryRim: true))
        var largest: Float = 0, differing = 0
        for (a, b) in zip(fast, sampled) {
            let d = a - b
            let difference = max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
            largest = max(largest, difference)
            if difference > 0 { differing += 1 }
        }
        #expect(grid.cellSize > 4, "the scene must be rasterised on a reduced grid")
        if Self.scenes[index].takesShortcuts {
            #expect(differing > 100, "the shortcuts must be taken: only \(differing) cells changed")
        }
        #expect(largest <= 2e-4, "\(Self.scenes[index].name): largest difference \(largest)")
    }
}
