import FluidGradient
import Foundation
import Testing

/// The production path against the oracle (DESIGN section 1): with dither off, the
/// largest error is at most 2/255 and the mean at most 0.5/255.
///
/// Cases cover sizes from 64×64, aspect ratios to 8:1 both ways, blur exponents from
/// 0.3 to 0.95, all three edge modes, solid and gradient backgrounds, and translucent
/// highlights. Sizes are small because the oracle is slow; BENCHMARKS.md records the
/// same check at 1920×1080 and 3840×2160 (`fluidgradient bench --check-accuracy`).
@Suite struct AccuracyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var width: Int
        var height: Int
        var exponent: Double
        var edges: EdgeMode
        var seed: UInt64
        var background = "#020617"
        var testDescription: String { "\(width)x\(height) e=\(exponent) \(edges) seed \(seed) on \(background)" }
    }

    static let cases: [Case] = [
        Case(width: 64, height: 64, exponent: 0.3, edges: .bleed, seed: 1),
        Case(width: 64, height: 64, exponent: 0.6, edges: .transparent, seed: 2),
        Case(width: 160, height: 90, exponent: 0.75, edges: .bleed, seed: 3),
        Case(width: 160, height: 90, exponent: 0.5, edges: .clamp, seed: 4),
        Case(width: 90, height: 160, exponent: 0.9, edges: .transparent, seed: 5),
        Case(width: 128, height: 128, exponent: 0.95, edges: .bleed, seed: 6),
        Case(width: 480, height: 60, exponent: 0.75, edges: .bleed, seed: 7),
        Case(width: 60, height: 480, exponent: 0.75, edges: .transparent, seed: 8),
        Case(width: 32, height: 256, exponent: 0.6, edges: .clamp, seed: 8),
        Case(width: 64, height: 512, exponent: 0.8, edges: .clamp, seed: 12),
        Case(
            width: 200, height: 120, exponent: 0.7, edges: .bleed, seed: 9,
            background: "linear 300 #0B1026 0, #3B1E54 0.6, #9B3675 1"),
        Case(width: 120, height: 120, exponent: 0.8, edges: .transparent, seed: 10, background: "#00000000"),
        Case(
            width: 180, height: 100, exponent: 0.75, edges: .clamp, seed: 11,
            background: "radial #FFFFFF 0, #1E293B 1"),
    ]

    @Test(arguments: cases)
    func productionPathStaysWithinTheTolerance(_ testCase: Case) throws {
        let spec = FrameSpec(
            width: testCase.width, height: testCase.height, blurExponent: testCase.exponent, edges: testCase.edges,
            background: try Fill(parsing: testCase.background))
        let scene = randomScene(seed: testCase.seed, width: testCase.width, height: testCase.height)

        try expectWithinTolerance(scene: scene, spec: spec)
    }

    @Test(arguments: PresetFixtures.builtInNames)
    func builtInPresetsStayWithinTheTolerance(name: String) throws {
        var preset = try PresetFixtures.builtIn(name)
        preset.width = 160
        preset.height = 90
        // At 2.5 s graphite has a blob narrower than a cell crossing others.
        for time in [0.5, 2.5] {
            let scene = Animator(preset: preset).scene(at: time)
            try expectWithinTolerance(scene: scene, spec: preset.frameSpec)
        }
    }

    /// Translucent blobs under translucent highlights: the overlay onto a backdrop that
    /// is partly transparent, where `Cs' = (1 − αb)·Cs + αb·B` mixes the two, and a rim
    /// under the highlights crossing the overlay's switch.
    @Test func translucentHighlightsStayWithinTheTolerance() throws {
        var generator = SplitMix64(seed: 77)
        let scene = Scene(
            base: (0..<5).map { _ in randomTranslucentBlob(&generator) },
            highlights: (0..<3).map { _ in randomTranslucentBlob(&generator) })
        for exponent in [0.35, 0.8] {
            let spec = FrameSpec(width: 150, height: 100, blurExponent: exponent, background: .color(.clear))
            try expectWithinTolerance(scene: scene, spec: spec)
        }
        for exponent in [0.5, 0.7] {
            try expectWithinTolerance(
                scene: RimShortcutTests.overlaySwitch,
                spec: FrameSpec(width: 320, height: 180, blurExponent: exponent))
        }
    }

    /// A blob a few pixels wide, narrower than a grid cell, is sampled at the pixel
    /// centres as the definition samples it (a continuous sub-grid was 6 levels off
    /// here), and its effect is placed at its own position within the cell by its first
    /// moment (without it, up to 2.4 levels here, and every case below exceeds 1.5).
    /// Measured at most 1.18 levels; the bound is 1.5, inside DESIGN's 2, so that a lost
    /// moment shows. With a second, black blob whose rim runs beside the thin one, the
    /// thin blob's cells have two rims. The thin blob moves across a pixel in quarter steps.
    @Test(arguments: [0.42, 0.45, 0.5, 0.6], [false, true])
    func blobsNarrowerThanACellStayClose(exponent: Double, beside: Bool) {
        for step in 0..<4 {
            let x = 0.3 + Double(step) * 0.25 / 320
            // 3.2 pixels wide, or 1.8 at σ 8.9 pixels (exponent 0.42), where cells are 4.4 pixels.
            let thin = Blob(color: .white, center: SIMD2(x, 0.5), radius: SIMD2(exponent < 0.44 ? 0.0028 : 0.005, 0.3))
            let black = Blob(color: .black, center: SIMD2(x + 0.19, 0.5), radius: SIMD2(0.2, 3))
            let error = Self.thinBlobError(beside ? [black, thin] : [thin], edges: .bleed, exponent: exponent)
            #expect(error.max <= 1.5, "largest error \(error.max) levels at \(error.worst), step \(step)")
            #expect(error.mean <= 0.5, "mean error \(error.mean) levels, step \(step)")
        }
    }

    /// A blob thinner than a pixel that covers the centre of a pixel cut by a cell
    /// boundary, without reaching the boundary: the cell on the other side holds part of
    /// that pixel too, so it must find the blob by the pixel's centre, not by its own
    /// span (which lost the part beyond the boundary: 3.5 and 4.8 levels here). The
    /// boundary is the one cutting its pixel nearest the middle.
    @Test(arguments: [0.45, 0.5])
    func aBlobOnTheCentreOfAPixelCutByACellBoundary(exponent: Double) {
        let spec = FrameSpec(width: 320, height: 180, blurExponent: exponent)
        let axis = WorkingGrid(spec: spec).horizontal
        let boundaries = (20..<(axis.cells - 20)).map { (Double($0) + axis.offset - 0.5) * axis.cellSize }
        let boundary = boundaries.min {
            abs($0.truncatingRemainder(dividingBy: 1) - 0.5) < abs($1.truncatingRemainder(dividingBy: 1) - 0.5)
        }!
        let pixel = boundary.rounded(.down)
        let line = Blob(
            color: .white, center: SIMD2((pixel + 0.5) / 320, 0.5),
            radius: SIMD2(0.9 * abs(boundary - pixel - 0.5) / 320, 0.3))
        let error = Self.thinBlobError([line], edges: .bleed, exponent: exponent)
        #expect(error.max <= 1.5, "largest error \(error.max) levels at \(error.worst), boundary at \(boundary)")
    }

    /// Thin blobs crossing the frame's edges: with clamp edges the cells beyond the frame
    /// repeat the edge's pixels (their samples' moments count from where they stand, not
    /// from the clamped position), and with transparent edges they stay empty, so a cell
    /// at the edge moves its content with its neighbour inside the frame alone. The
    /// corner blob lies along the left edge, within a pixel of it: with clamp edges it is
    /// repeated beyond the edge as a band as wide as the blur (see
    /// ``clampedEdgesAlongAThinBlobAtTheEdge(exponent:)``), measured at 1.57 levels, so
    /// with clamp edges it is held to DESIGN's 2, and everything else to 1.5 (measured at
    /// most 1.27).
    @Test(arguments: [EdgeMode.clamp, .transparent, .bleed], [0.45, 0.5])
    func blobsNarrowerThanACellAtTheFramesEdges(edges: EdgeMode, exponent: Double) {
        let across = Blob(color: .white, center: SIMD2(0.3, 0.05), radius: SIMD2(0.005, 0.3))
        let along = Blob(
            color: RGBA(red: 1, green: 0.8, blue: 0.2, alpha: 1), center: SIMD2(0.97, 0.6), radius: SIMD2(0.3, 0.009))
        let corner = Blob(
            color: RGBA(red: 0.3, green: 0.9, blue: 1, alpha: 1), center: SIMD2(0.004, 0.996), radius: SIMD2(0.004, 0.2)
        )
        if edges == .clamp {
            let error = Self.thinBlobError([across, along], edges: edges, exponent: exponent)
            #expect(error.max <= 1.5, "without the corner blob, largest error \(error.max) levels at \(error.worst)")
        }
        let error = Self.thinBlobError([across, along, corner], edges: edges, exponent: exponent)
        #expect(error.max <= (edges == .clamp ? 2 : 1.5), "largest error \(error.max) levels at \(error.worst)")
        #expect(error.mean <= 0.5, "mean error \(error.mean) levels")
    }

    /// With clamp edges, a blob a pixel or two wide lying along the frame's edge, within
    /// a pixel of it, is repeated beyond the edge as a band as wide as the blur. The cells
    /// beyond the edge are wholly inside it, so they count by area; the cell at the edge
    /// counts its pixels, and the pixel cut by the boundary between them must count for
    /// its share in each. Counting it whole in the edge cell was 3.8 levels off at σ 13
    /// pixels. Measured at most 1.84 levels, at σ 22 pixels.
    @Test(arguments: [0.42, 0.45, 0.5, 0.6])
    func clampedEdgesAlongAThinBlobAtTheEdge(exponent: Double) {
        let bottom = Blob(color: .white, center: SIMD2(0.5, 0.996), radius: SIMD2(0.2, 0.008))
        let error = Self.thinBlobError([bottom], edges: .clamp, exponent: exponent)
        #expect(error.max <= 2, "largest error \(error.max) levels at \(error.worst)")
        #expect(error.mean <= 0.5, "mean error \(error.mean) levels")
    }

    static func thinBlobError(_ blobs: [Blob], edges: EdgeMode, exponent: Double) -> (
        max: Double, mean: Double, worst: (x: Int, y: Int)
    ) {
        let spec = FrameSpec(width: 320, height: 180, blurExponent: exponent, edges: edges, background: .color(.black))
        #expect(FrameRenderer(spec: spec).cellSize > 1, "not the reduced-grid path")
        let scene = Scene(base: blobs)
        let reference = ReferenceRenderer.render(scene, spec: spec, threads: 2)
        var eight = PixelBuffer(width: 320, height: 180, format: .rgb24)
        FrameRenderer(spec: spec, threads: 2).render(scene, dither: false, into: &eight)
        return errorAgainstReference(eight, reference)
    }

    func expectWithinTolerance(scene: Scene, spec: FrameSpec, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let reference = ReferenceRenderer.render(scene, spec: spec, threads: 2)
        let renderer = FrameRenderer(spec: spec, threads: 2)
        let alpha = spec.hasTransparency
        // 8 bits, as written by default (dither off): DESIGN's tolerance.
        var eight = PixelBuffer(width: spec.width, height: spec.height, format: .packed(depth: 8, alpha: alpha))
        renderer.render(scene, dither: false, into: &eight)
        let error8 = errorAgainstReference(eight, reference)
        #expect(
            error8.max <= 2, "largest error \(error8.max) levels at \(error8.worst)", sourceLocation: sourceLocation)
        #expect(error8.mean <= 0.5, "mean error \(error8.mean) levels", sourceLocation: sourceLocation)
        // 16 bits isolates the approximation from 8-bit rounding. Its budget is tighter
        // than DESIGN's (1.25 and 0.25 levels) so that accuracy lost by a change shows here
        // before the 8-bit limit is reached; measured worst cases are about 0.9 and 0.2.
        var sixteen = PixelBuffer(width: spec.width, height: spec.height, format: .packed(depth: 16, alpha: alpha))
        renderer.render(scene, dither: false, into: &sixteen)
        let error16 = errorAgainstReference(sixteen, reference)
        #expect(
            error16.max <= 1.25, "16-bit largest error \(error16.max) levels at \(error16.worst)",
            sourceLocation: sourceLocation)
        #expect(error16.mean <= 0.25, "16-bit mean error \(error16.mean) levels", sourceLocation: sourceLocation)
    }
}
