import Foundation
import FluidGradient
import Testing

/// The production path against the oracle (DESIGN section 1): with dither off, the
/// largest error is at most 2/255 and the mean at most 0.5/255.
///
/// Cases cover sizes from 64×64, aspect ratios to 8:1 both ways, blur exponents from
/// 0.3 to 0.95, all three edge modes, solid and gradient backgrounds, and nested
/// blend modes. Sizes are small because the oracle is slow; BENCHMARKS.md records the
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
        Case(width: 200, height: 120, exponent: 0.7, edges: .bleed, seed: 9, background: "linear 300 #0B1026 0, #3B1E54 0.6, #9B3675 1"),
        Case(width: 120, height: 120, exponent: 0.8, edges: .transparent, seed: 10, background: "#00000000"),
        Case(width: 180, height: 100, exponent: 0.75, edges: .clamp, seed: 11, background: "radial #FFFFFF 0, #1E293B 1"),
    ]

    @Test(arguments: cases)
    func productionPathStaysWithinTheTolerance(_ testCase: Case) throws {
        let spec = FrameSpec(
            width: testCase.width, height: testCase.height, blurExponent: testCase.exponent, edges: testCase.edges,
            background: try Fill(parsing: testCase.background))
        let root = randomScene(seed: testCase.seed, width: testCase.width, height: testCase.height)
            .rootLayer(width: testCase.width, height: testCase.height)
        try expectWithinTolerance(root: root, spec: spec)
    }

    @Test(arguments: PresetFixtures.builtInNames)
    func builtInPresetsStayWithinTheTolerance(name: String) throws {
        var preset = try PresetFixtures.builtIn(name)
        preset.width = 160
        preset.height = 90
        // At 2.5 s graphite has a blob narrower than a cell crossing others.
        for time in [0.5, 2.5] {
            let root = Animator(preset: preset).scene(at: time).rootLayer(width: 160, height: 90)
            try expectWithinTolerance(root: root, spec: preset.frameSpec)
        }
    }

    /// A tree with nested groups, group opacity and every blend mode.
    @Test func nestedLayerTreesStayWithinTheTolerance() throws {
        var generator = SplitMix64(seed: 77)
        func blob() -> Blob { randomTranslucentBlob(&generator) }
        var root = Layer(name: "root", sublayers: BlendMode.allCases.enumerated().map { index, mode in
            Layer(
                name: "group \(index)", opacity: 0.5 + 0.06 * Double(index), blendMode: mode,
                sublayers: [Layer(name: "a", content: .blob(blob())), Layer(name: "b", blendMode: mode, content: .blob(blob()))])
        })
        root.layout(in: LayerRect(width: 150, height: 100))
        for exponent in [0.35, 0.8] {
            try expectWithinTolerance(root: root, spec: FrameSpec(width: 150, height: 100, blurExponent: exponent))
        }
    }

    /// A group closed by a blend that is not affine in its source, whose last blob's rim
    /// crosses the cells (see ``RimShortcutTests/lastBlobInAGroup(closedBy:width:height:)``).
    @Test(arguments: [BlendMode.darken, .lighten, .hardLight, .softLight])
    func aGroupClosedByABlendThatBendsStaysWithinTheTolerance(mode: BlendMode) throws {
        let root = RimShortcutTests.lastBlobInAGroup(closedBy: mode, width: 320, height: 180)
        for exponent in [0.5, 0.7] {
            try expectWithinTolerance(root: root, spec: FrameSpec(width: 320, height: 180, blurExponent: exponent))
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
        let boundary = boundaries.min { abs($0.truncatingRemainder(dividingBy: 1) - 0.5) < abs($1.truncatingRemainder(dividingBy: 1) - 0.5) }!
        let pixel = boundary.rounded(.down)
        let line = Blob(
            color: .white, center: SIMD2((pixel + 0.5) / 320, 0.5), radius: SIMD2(0.9 * abs(boundary - pixel - 0.5) / 320, 0.3))
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
        let along = Blob(color: RGBA(red: 1, green: 0.8, blue: 0.2, alpha: 1), center: SIMD2(0.97, 0.6), radius: SIMD2(0.3, 0.009))
        let corner = Blob(color: RGBA(red: 0.3, green: 0.9, blue: 1, alpha: 1), center: SIMD2(0.004, 0.996), radius: SIMD2(0.004, 0.2))
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

    static func thinBlobError(_ blobs: [Blob], edges: EdgeMode, exponent: Double) -> (max: Double, mean: Double, worst: (x: Int, y: Int)) {
        let spec = FrameSpec(width: 320, height: 180, blurExponent: exponent, edges: edges, background: .color(.black))
        #expect(FrameRenderer(spec: spec).cellSize > 1, "not the reduced-grid path")
        let root = Scene(base: blobs).rootLayer(width: 320, height: 180)
        let reference = ReferenceRenderer.render(root, spec: spec, threads: 2)
        var eight = PixelBuffer(width: 320, height: 180, format: .rgb24)
        FrameRenderer(spec: spec, threads: 2).render(root, dither: false, into: &eight)
        return errorAgainstReference(eight, reference)
    }

    func expectWithinTolerance(root: Layer, spec: FrameSpec, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = ReferenceRenderer.render(root, spec: spec, threads: 2)
        let renderer = FrameRenderer(spec: spec, threads: 2)
        let alpha = spec.hasTransparency
        // 8 bits, as written by default (dither off): DESIGN's tolerance.
        var eight = PixelBuffer(width: spec.width, height: spec.height, format: .packed(depth: 8, alpha: alpha))
        renderer.render(root, dither: false, into: &eight)
        let error8 = errorAgainstReference(eight, reference)
        #expect(error8.max <= 2, "largest error \(error8.max) levels at \(error8.worst)", sourceLocation: sourceLocation)
        #expect(error8.mean <= 0.5, "mean error \(error8.mean) levels", sourceLocation: sourceLocation)
        // 16 bits isolates the approximation from 8-bit rounding. Its budget is tighter
        // than DESIGN's (1.25 and 0.25 levels) so that accuracy lost by a change shows here
        // before the 8-bit limit is reached; measured worst cases are about 0.9 and 0.2.
        var sixteen = PixelBuffer(width: spec.width, height: spec.height, format: .packed(depth: 16, alpha: alpha))
        renderer.render(root, dither: false, into: &sixteen)
        let error16 = errorAgainstReference(sixteen, reference)
        #expect(error16.max <= 1.25, "16-bit largest error \(error16.max) levels at \(error16.worst)", sourceLocation: sourceLocation)
        #expect(error16.mean <= 0.25, "16-bit mean error \(error16.mean) levels", sourceLocation: sourceLocation)
    }
}

/// Same inputs, same bytes: across runs and across thread counts (DESIGN section 9).
@Suite struct DeterminismTests {
    @Test(arguments: [PixelFormat.rgba, .rgb24, .rgba64le, .yuv420p, .yuv420p10le])
    func identicalBytesAtAnyThreadCount(format: PixelFormat) throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 640
        preset.height = 360
        let scene = Animator(preset: preset).scene(at: 1.25)
        var outputs: [[UInt8]] = []
        for threads in [1, 2, 3, 8, 1] {
            var buffer = PixelBuffer(width: 640, height: 360, format: format)
            FrameRenderer(spec: preset.frameSpec, threads: threads).render(scene, frameIndex: 75, into: &buffer)
            outputs.append(buffer.bytes)
        }
        #expect(Set(outputs).count == 1)
    }

    /// Frames rendered in concurrent tasks, a renderer each, come back across the tasks
    /// as values with the bytes of one renderer's serial run.
    @Test func framesRenderedInConcurrentTasksMatchASerialRun() async throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 160
        preset.height = 90
        let animator = Animator(preset: preset)
        let times = (0..<16).map { Double($0) * 0.37 }
        let serial = FrameRenderer(spec: preset.frameSpec)
        let expected = times.map { time -> [UInt8] in
            var buffer = PixelBuffer(width: 160, height: 90, format: .rgba)
            serial.render(animator.scene(at: time), into: &buffer)
            return buffer.bytes
        }
        let spec = preset.frameSpec
        let scenes = times.map { animator.scene(at: $0) }
        let frames = await withTaskGroup(of: (Int, PixelBuffer).self) { group in
            for (index, scene) in scenes.enumerated() {
                group.addTask {
                    var buffer = PixelBuffer(width: 160, height: 90, format: .rgba)
                    FrameRenderer(spec: spec).render(scene, into: &buffer)
                    return (index, buffer)
                }
            }
            var frames = [PixelBuffer?](repeating: nil, count: scenes.count)
            for await (index, buffer) in group { frames[index] = buffer }
            return frames
        }
        #expect(frames.map { $0?.bytes } == expected)
    }

    /// Blobs narrower than a cell move their cells' content by its first moment, which is
    /// added to the grid in grid order after the rows are composited on any threads.
    @Test func thinBlobsGiveIdenticalBytesAtAnyThreadCount() {
        let spec = FrameSpec(width: 1280, height: 720, blurExponent: 0.45, background: .color(.black))
        let thin = (0..<6).map { index in
            Blob(color: .white, center: SIMD2(0.1 + 0.15 * Double(index), 0.2 + 0.1 * Double(index)), radius: SIMD2(0.002, 0.2))
        }
        let root = Scene(base: thin).rootLayer(width: 1280, height: 720)
        var outputs: Set<[UInt8]> = []
        for threads in [1, 2, 3, 8] {
            var buffer = PixelBuffer(width: 1280, height: 720, format: .rgb24)
            FrameRenderer(spec: spec, threads: threads).render(root, dither: false, into: &buffer)
            outputs.insert(buffer.bytes)
        }
        #expect(outputs.count == 1)
    }

    @Test func ditherDependsOnlyOnPositionAndFrame() {
        let spec = FrameSpec(width: 96, height: 64)
        let scene = randomScene(seed: 3, width: 96, height: 64)
        func render(frame: Int) -> [UInt8] {
            var buffer = PixelBuffer(width: 96, height: 64, format: .rgb24)
            FrameRenderer(spec: spec).render(scene, frameIndex: frame, into: &buffer)
            return buffer.bytes
        }
        #expect(render(frame: 4) == render(frame: 4))
        #expect(render(frame: 4) != render(frame: 5))
    }

    /// Dithering changes each value by less than one level and keeps its average.
    @Test func ditherIsUnbiased() {
        let spec = FrameSpec(width: 128, height: 128, background: .color(RGBA(red: 0.30196, green: 0.5, blue: 0.1, alpha: 1)))
        var buffer = PixelBuffer(width: 128, height: 128, format: .rgb24)
        FrameRenderer(spec: spec).render(Scene(base: []), into: &buffer)
        let bytes = buffer.bytes
        for channel in 0..<3 {
            let values = stride(from: channel, to: bytes.count, by: 3).map { Double(bytes[$0]) }
            let target = [0.30196, 0.5, 0.1][channel] * 255
            #expect(values.allSatisfy { abs($0 - target) < 1 })
            #expect(abs(values.reduce(0, +) / Double(values.count) - target) < 0.01)
        }
    }

    /// The same on the fast RGBA path (a reduced grid and an opaque solid background),
    /// at the ends of the range, where a value plus its threshold sits just above 0 or
    /// just below 256 and must neither wrap nor clip.
    @Test(arguments: [0.0, 0.001, 0.3, 0.999, 1.0])
    func ditherIsUnbiasedOnTheFastPathAtTheEnds(value: Double) {
        let spec = FrameSpec(width: 320, height: 180, background: .color(RGBA(red: value, green: 1 - value, blue: value, alpha: 1)))
        var buffer = PixelBuffer(width: 320, height: 180, format: .rgba)
        let renderer = FrameRenderer(spec: spec)
        #expect(renderer.cellSize > 1, "not the reduced-grid path")
        renderer.render(Scene(base: []), frameIndex: 7, into: &buffer)
        let bytes = buffer.bytes
        for channel in 0..<3 {
            let values = stride(from: channel, to: bytes.count, by: 4).map { Double(bytes[$0]) }
            let target = (channel == 1 ? 1 - value : value) * 255
            #expect(values.allSatisfy { abs($0 - target) < 1 }, "channel \(channel): \(values.min()!)...\(values.max()!) for \(target)")
            #expect(abs(values.reduce(0, +) / Double(values.count) - target) < 0.01)
        }
    }

    /// The fast RGBA path and the general path (RGB) agree to within one level: they
    /// order the same float arithmetic differently, so a value on a level boundary
    /// may land either side. A channel that is 0 everywhere stays exactly 0. A width
    /// that is not a multiple of four ends in pixels the fast path packs one by one.
    @Test(arguments: [320, 323])
    func fastAndGeneralPathsAgreeOnSaturatedColours(width: Int) {
        let spec = FrameSpec(width: width, height: 180, background: .color(.black))
        let scene = Scene(base: [Blob(color: RGBA(red: 0, green: 0, blue: 1, alpha: 1), center: SIMD2(0.4, 0.5), radius: SIMD2(0.3, 0.5))])
        let renderer = FrameRenderer(spec: spec)
        #expect(renderer.cellSize > 1, "not the reduced-grid path")
        var rgba = PixelBuffer(width: width, height: 180, format: .rgba), rgb = PixelBuffer(width: width, height: 180, format: .rgb24)
        renderer.render(scene, frameIndex: 3, into: &rgba)
        renderer.render(scene, frameIndex: 3, into: &rgb)
        let fast = rgba.bytes, general = rgb.bytes
        var largest = 0, coloured = 0, opaque = true
        for pixel in 0..<(width * 180) {
            if fast[4 * pixel] != 0 || fast[4 * pixel + 1] != 0 { coloured += 1 }
            opaque = opaque && fast[4 * pixel + 3] == 255
            for channel in 0..<3 { largest = max(largest, abs(Int(fast[4 * pixel + channel]) - Int(general[3 * pixel + channel]))) }
        }
        #expect(coloured == 0, "\(coloured) pixels have red or green")
        #expect(opaque)
        #expect(largest <= 1)
    }

    /// Every built-in preset at its first frame: the fast RGBA path against the general path.
    @Test(arguments: PresetFixtures.builtInNames)
    func fastAndGeneralPathsAgreeOnEveryPreset(name: String) throws {
        var preset = try PresetFixtures.builtIn(name)
        (preset.width, preset.height) = (640, 360)
        let scene = Animator(preset: preset).scene(at: 0)
        let renderer = FrameRenderer(spec: preset.frameSpec)
        var rgba = PixelBuffer(width: 640, height: 360, format: .rgba), rgb = PixelBuffer(width: 640, height: 360, format: .rgb24)
        renderer.render(scene, frameIndex: 0, into: &rgba)
        renderer.render(scene, frameIndex: 0, into: &rgb)
        let fast = rgba.bytes, general = rgb.bytes
        var largest = 0
        for pixel in 0..<(640 * 360) {
            for channel in 0..<3 { largest = max(largest, abs(Int(fast[4 * pixel + channel]) - Int(general[3 * pixel + channel]))) }
        }
        #expect(largest <= 1)
    }

    @Test func bayerThresholdsAreAPermutation() {
        var ranks = Set<Int>()
        for y in 0..<64 {
            for x in 0..<64 { ranks.insert(Int(Dither.bayerThreshold(x: x, y: y) * 4096 - 0.5)) }
        }
        #expect(ranks == Set(0..<4096))
        #expect(Dither.bayerThreshold(x: 0, y: 0) == 0.5 / 4096)
    }
}

@Suite struct LayerTreeTests {
    @Test func resizingTheRootRelaysOutTheWholeTree() {
        var root = Scene(base: [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.2, 0.2))]).rootLayer(width: 100, height: 50)
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(width: 100, height: 50))
        root.layout(in: LayerRect(width: 300, height: 200))
        #expect(root.sublayers[0].frame == LayerRect(width: 300, height: 200))
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(width: 300, height: 200))
        #expect(root.sublayers[1].blendMode == .overlay)
        // Unit-space geometry scales with the frame: the centre pixel stays inside the blob.
        #expect(ReferenceRenderer.value(of: root, x: 150, y: 100).w == 1)
    }

    @Test func aFixedLayerKeepsItsFrame() {
        var child = Layer(name: "fixed", frame: LayerRect(x: 10, y: 10, width: 20, height: 20), isResizable: false)
        child.sublayers = [Layer(name: "inner", content: .blob(Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.5, 0.5))))]
        child.sublayers[0].frame = LayerRect(x: 10, y: 10, width: 20, height: 20)
        var root = Layer(name: "root", sublayers: [child])
        root.layout(in: LayerRect(width: 100, height: 100))
        #expect(root.sublayers[0].frame == LayerRect(width: 100, height: 100))
        #expect(root.sublayers[0].sublayers[0].frame == LayerRect(x: 10, y: 10, width: 20, height: 20))
        // The blob is drawn in its own layer's frame: centred at (20, 20).
        #expect(ReferenceRenderer.value(of: root, x: 20, y: 20).w == 1)
        #expect(ReferenceRenderer.value(of: root, x: 50, y: 50).w == 0)
    }

    @Test func groupOpacityScalesTheGroup() {
        var root = Layer(name: "root", sublayers: [
            Layer(name: "group", opacity: 0.5, sublayers: [Layer(name: "blob", content: .blob(Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(1, 1))))])
        ])
        root.layout(in: LayerRect(width: 10, height: 10))
        #expect(ReferenceRenderer.value(of: root, x: 5, y: 5) == SIMD4(repeating: 0.5))
    }
}

/// The rasteriser's shortcuts for cells one or two rims cross — the chord between a
/// rim's coverage 0 and 1, and the bilinear surface through four corners with the
/// coverages' product averaged — against averaging the composite over every sample.
/// Both are exact where they apply, and a pattern is let through only if the composite
/// at coverage ¼, ½ and ¾ (for two rims, at every quarter point of the square of
/// coverages) lies within 10⁻⁴ of the shortcut, so the cells
/// agree to about that (0.03 levels); leaving out the product term (the rims'
/// covariance) is off by far more.
@Suite struct RimShortcutTests {
    /// Each scene, and whether its cells take the shortcuts (along an S, every pattern
    /// must fall back to sampling, so nothing differs there).
    static let scenes: [(name: String, root: Layer, takesShortcuts: Bool)] = {
        var generator = SplitMix64(seed: 5)
        func blob() -> Blob { randomTranslucentBlob(&generator) }
        var nested = Layer(name: "root", sublayers: BlendMode.allCases.map { mode in
            Layer(name: "\(mode)", blendMode: mode, sublayers: [Layer(name: "a", content: .blob(blob())), Layer(name: "b", blendMode: mode, content: .blob(blob()))])
        })
        nested.layout(in: LayerRect(width: 600, height: 400))
        return [
            ("random scene with overlay highlights", randomScene(seed: 21, count: 8, highlights: 3, width: 600, height: 400).rootLayer(width: 600, height: 400), true),
            ("every blend mode, nested", nested, true),
        ] + [BlendMode.darken, .lighten, .hardLight, .softLight].map { ("the last blob in a group closed by \($0)", lastBlobInAGroup(closedBy: $0, width: 600, height: 400), true) }
            + [("a darken group inside a lighten group", darkenInsideLighten(width: 600, height: 400), false),
               ("a darken group inside a lighten group, over a hidden blob's rim", darkenInsideLighten(width: 600, height: 400, hiddenRim: true), false)]
    }()

    /// Along the blue blob's rim the inner group runs from red to blue, `(1 − c, 0.2, c)`;
    /// darken onto `(0.75, 0.2, 0.75)` and lighten onto `(0.25, 0.2, 0.25)` clamp red and
    /// blue to [0.25, 0.75], with kinks at c = ¼ and ¾: an S whose middle lies on the chord
    /// from c = 0 to 1, so that only a check away from the middle sees the bend.
    ///
    /// With `hiddenRim`, a blob under everything has its rim beside the blue one's: the
    /// composite does not depend on its coverage, so the cells it crosses have two rims
    /// and the S runs along the edges of their square of coverages.
    static func darkenInsideLighten(width: Int, height: Int, hiddenRim: Bool = false) -> Layer {
        laidOut(width: width, height: height, (hiddenRim ? [blob(0, 1, 0, center: [0.56, 0.5], radius: [0.25, 0.3])] : []) + [
            blob(0.25, 0.2, 0.25, center: [0.5, 0.5], radius: [1, 1]),
            Layer(name: "outer", blendMode: .lighten, sublayers: [
                blob(0.75, 0.2, 0.75, center: [0.5, 0.5], radius: [1, 1]),
                redBlueGroup(name: "inner", closedBy: .darken),
            ]),
        ])
    }

    /// A blue blob whose rim runs over a red one, in a group closed by `mode`.
    static func redBlueGroup(name: String, closedBy mode: BlendMode) -> Layer {
        Layer(name: name, blendMode: mode, sublayers: [
            blob(1, 0.2, 0, center: [0.5, 0.5], radius: [0.45, 0.45]),
            blob(0, 0.2, 1, center: [0.55, 0.5], radius: [0.25, 0.3]),
        ])
    }

    /// A root holding `sublayers`, laid out at `width × height`.
    static func laidOut(width: Int, height: Int, _ sublayers: [Layer]) -> Layer {
        var root = Layer(name: "root", sublayers: sublayers)
        root.layout(in: LayerRect(width: Double(width), height: Double(height)))
        return root
    }

    /// An opaque blob layer of colour `(red, green, blue)`.
    static func blob(_ red: Double, _ green: Double, _ blue: Double, center: SIMD2<Double>, radius: SIMD2<Double>) -> Layer {
        Layer(name: "blob", content: .blob(Blob(color: RGBA(red: red, green: green, blue: blue, alpha: 1), center: center, radius: radius)))
    }

    /// A blue blob whose rim runs over a red one, the two grouped and the group blended
    /// onto dark grey: the blue blob is the last one present wherever its rim is. Along the
    /// rim the group's colour runs from red to blue, and `min`, `max` and the light
    /// blends switch branch on the way, so the composite is not affine in the blue
    /// blob's coverage there even though no blob follows it.
    static func lastBlobInAGroup(closedBy mode: BlendMode, width: Int, height: Int) -> Layer {
        laidOut(width: width, height: height, [
            blob(0.3, 0.3, 0.3, center: [0.5, 0.5], radius: [1, 1]),
            redBlueGroup(name: "group", closedBy: mode),
        ])
    }

    @Test(arguments: RimShortcutTests.scenes.indices, [0.4, 0.6])
    func shortcutsMatchSamplingEveryRim(scene: Int, exponent: Double) {
        let root = Self.scenes[scene].root
        let grid = WorkingGrid(spec: FrameSpec(width: 600, height: 400, blurExponent: exponent))
        let fast = grid.cellAverages(of: root, edges: .bleed)
        let sampled = grid.cellAverages(of: root, edges: .bleed, options: RasterOptions(samplesEveryRim: true))
        var largest: Float = 0, differing = 0
        for (a, b) in zip(fast, sampled) {
            let d = a - b
            let difference = max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
            largest = max(largest, difference)
            if difference > 0 { differing += 1 }
        }
        #expect(grid.cellSize > 4, "the scene must be rasterised on a reduced grid")
        if Self.scenes[scene].takesShortcuts {
            #expect(differing > 100, "the shortcuts must be taken: only \(differing) cells changed")
        }
        #expect(largest <= 2e-4, "\(Self.scenes[scene].name): largest difference \(largest)")
    }
}


/// The rasteriser finds each blob's cells in a grid row as two runs of columns, by
/// bisection; that must classify every cell exactly as testing each column does.
@Suite struct CellClassificationTests {
    /// Small blobs scattered over and beyond the frame: spans clamped at the edges, blobs
    /// narrower than a cell, blobs that reach the frame only from outside.
    static func scatteredSmallBlobs(seed: UInt64, width: Int, height: Int) -> Layer {
        var generator = SplitMix64(seed: seed)
        let blobs = (0..<24).map { index in
            let center = SIMD2(-0.15 + 1.3 * generator.nextUnit(), -0.15 + 1.3 * generator.nextUnit())
            let radius = SIMD2(0.002 + 0.08 * generator.nextUnit(), 0.002 + 0.08 * generator.nextUnit())
            let color = RGBA(red: generator.nextUnit(), green: generator.nextUnit(), blue: generator.nextUnit(), alpha: 1)
            return Layer(name: "\(index)", content: .blob(Blob(color: color, center: center, radius: radius)))
        }
        var root = Layer(name: "root", sublayers: blobs)
        root.layout(in: LayerRect(width: Double(width), height: Double(height)))
        return root
    }

    @Test(arguments: [(600, 400), (64, 64), (1600, 200), (200, 1600)], [0.3, 0.6, 0.95])
    func bisectionMatchesTestingEveryColumn(size: (Int, Int), exponent: Double) {
        let (width, height) = size
        let scene = randomScene(seed: UInt64(width + height), count: 8, highlights: 2, width: width, height: height)
            .rootLayer(width: width, height: height)
        for edges in EdgeMode.allCases {
            let grid = WorkingGrid(spec: FrameSpec(width: width, height: height, blurExponent: exponent, edges: edges))
            let direct = RasterOptions(classifiesEveryColumn: true)
            for (name, root) in [("random scene", scene), ("small blobs", Self.scatteredSmallBlobs(seed: 7, width: width, height: height))] {
                let fast = grid.cellAverages(of: root, edges: edges)
                let reference = grid.cellAverages(of: root, edges: edges, options: direct)
                let differing = zip(fast, reference).filter { $0 != $1 }.count
                #expect(differing == 0, "\(name), \(width)x\(height), exponent \(exponent), \(edges): \(differing) cells differ")
            }
        }
    }
}
