import FluidGradient
import Foundation
import Testing

/// Bars and ellipses a few pixels thin against the oracle, at DESIGN section 1's
/// tolerance (largest error 2 levels, mean 0.5, 8-bit, dither off).
///
/// This is the class the working grid found hardest: a rim thinner than its sub-sample
/// spacing aliases against the definition's pixel centres, and along a long bar that
/// error repeats in every cell (10.4 levels for the bar of ``theReportedBar()``); an
/// effect narrower than its cell was also blurred too little. The cases cover 0.5 to 8
/// pixels thin, horizontal, vertical and diagonal (a chain of dots: blobs are
/// axis-aligned), sub-pixel positions, σ from 4 to 60 pixels and every edge mode,
/// hand-built and drawn from a seeded generator. BENCHMARKS.md records a larger sweep
/// of the class (`Scripts/thin-rim-sweep.py`).
@Suite struct ThinBlobAccuracyTests {
    enum Shape: CaseIterable {
        case horizontal, vertical, shortHorizontal, shortVertical, diagonal
    }

    /// One thin shape on a frame sized so that the oracle stays cheap at large σ.
    struct Case: CustomTestStringConvertible, Sendable {
        var shape: Shape
        /// Full thickness in pixels.
        var thickness: Double
        var sigma: Double
        var edges: EdgeMode
        /// Where the shape lies, in unit space (sub-pixel positions come with it).
        var center: SIMD2<Double>
        /// Length in pixels of a short shape.
        var length = 40.0
        var color = RGBA.white
        var testDescription: String {
            "\(shape) " + String(format: "%.2f px thin, σ %.1f px, ", thickness, sigma) + "\(edges)"
        }

        var size: (width: Int, height: Int) { sigma > 30 ? (160, 90) : (320, 180) }

        var spec: FrameSpec {
            let (width, height) = size
            let exponent = log(sigma) / log(Double(min(width, height)))
            return FrameSpec(
                width: width, height: height, blurExponent: exponent, edges: edges, background: .color(.black))
        }

        var blobs: [Blob] {
            let (width, height) = (Double(size.width), Double(size.height))
            let across = thickness / 2
            switch shape {
            case .horizontal, .shortHorizontal:
                let along = shape == .horizontal ? 3 : length / 2 / width
                return [Blob(color: color, center: center, radius: SIMD2(along, across / height))]
            case .vertical, .shortVertical:
                let along = shape == .vertical ? 3 : length / 2 / height
                return [Blob(color: color, center: center, radius: SIMD2(across / width, along))]
            case .diagonal:
                // 40 dots half their thickness apart, so the chain is as thin as each dot.
                let step = max(thickness / 2, 0.5)
                return (0..<40).map { index in
                    let offset = Double(index - 20) * step
                    let point = SIMD2(center.x + offset / width, center.y + offset / height)
                    return Blob(color: color, center: point, radius: SIMD2(across / width, across / height))
                }
            }
        }
    }

    /// Issue 24's reproducer: a 5.6-pixel white bar, σ 8.5 pixels, transparent edges.
    /// It was 10.4 levels off (mean 1.14); measured now 0.86 (mean 0.09).
    @Test func theReportedBar() {
        let spec = FrameSpec(
            width: 320, height: 180, blurExponent: 0.4121, edges: .transparent, background: .color(.black))
        let bar = Blob(color: .white, center: SIMD2(0.5, 0.3137), radius: SIMD2(3.0, 0.015556))
        expectWithinTolerance([bar], spec: spec)
    }

    static let thicknesses = [0.5, 1.5, 3, 5, 8]
    static let sigmas = [4.0, 9, 20, 40, 60]

    /// Every shape at each thickness and σ, with the edge mode and the sub-pixel position
    /// turning with the case so that each shows up with each.
    @Test(arguments: thicknesses, sigmas)
    func handBuiltShapes(thickness: Double, sigma: Double) {
        let turn = Self.thicknesses.firstIndex(of: thickness)! + Self.sigmas.firstIndex(of: sigma)!
        for (index, shape) in [Shape.horizontal, .vertical, .diagonal].enumerated() {
            let edges = EdgeMode.allCases[(turn + index) % EdgeMode.allCases.count]
            let quarter = Double((turn + index) % 4) * 0.25
            var testCase = Case(shape: shape, thickness: thickness, sigma: sigma, edges: edges, center: .zero)
            let (width, height) = testCase.size
            testCase.center = SIMD2(
                (Double(width / 2) + quarter) / Double(width), (Double(height / 3) + quarter) / Double(height))
            expectWithinTolerance(testCase.blobs, spec: testCase.spec, label: testCase.testDescription)
        }
    }

    /// Cases drawn from a seeded generator: thickness, σ (log-uniform), shape, edges,
    /// position, length and colour.
    static let randomCases: [Case] = {
        var generator = SplitMix64(seed: 24)
        return (0..<48).map { _ in
            let shape = Shape.allCases[Int(generator.next() % UInt64(Shape.allCases.count))]
            let edges = EdgeMode.allCases[Int(generator.next() % UInt64(EdgeMode.allCases.count))]
            let color = RGBA(
                red: generator.nextUnit(), green: generator.nextUnit(), blue: generator.nextUnit(),
                alpha: generator.next(in: 0.5...1))
            return Case(
                shape: shape, thickness: generator.next(in: 0.5...8), sigma: exp(generator.next(in: log(4)...log(60))),
                edges: edges, center: SIMD2(generator.next(in: 0.05...0.95), generator.next(in: 0.05...0.95)),
                length: generator.next(in: 10...80), color: color)
        }
    }()

    @Test(arguments: randomCases)
    func randomShapes(_ testCase: Case) {
        expectWithinTolerance(testCase.blobs, spec: testCase.spec, label: testCase.testDescription)
    }

    /// Random blobs reach the class too, with a narrow aspect range: bars across the
    /// frame, overlapping, under highlights. The report's scene, at 640x360, was 3.83
    /// levels off and measures 1.55 now (`bench --check-accuracy`); the test runs at
    /// 320x180 to keep the oracle cheap.
    @Test(arguments: EdgeMode.allCases)
    func randomBlobsOfANarrowAspect(edges: EdgeMode) throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 320
        preset.height = 180
        preset.blur = 0.4
        preset.edges = edges
        preset.ranges.aspect = ParameterRange(0.01, 0.02)
        let scene = Animator(preset: preset).scene(at: 1)
        expectWithinTolerance(scene: scene, spec: preset.frameSpec, label: "\(edges)")
    }

    /// Rims too thin for cells over 16 pixels need pixel centres, which the renderer
    /// then takes on a finer grid. The default preset, whose blobs are all wide, never
    /// pays for it at the sizes BENCHMARKS.md times (graphite does, at the instants
    /// where a blob is about 20 pixels thin; BENCHMARKS.md measures that cost).
    @Test(arguments: [(1920, 1080), (3840, 2160)])
    func onlyThinRimsTakeTheFinerGrid(size: (width: Int, height: Int)) throws {
        let renderer = FrameRenderer(spec: FrameSpec(width: size.width, height: size.height))
        let bar = Scene(base: [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(3, 0.003))])
        #expect(renderer.needsFinerGrid(bar))
        var preset = try PresetFixtures.builtIn("default")
        preset.width = size.width
        preset.height = size.height
        let animator = Animator(preset: preset)
        for time in stride(from: 0.0, through: 10, by: 0.25) {
            let scene = animator.scene(at: time)
            #expect(!renderer.needsFinerGrid(scene), "at \(time) s")
        }
    }

    /// The finer grid, like the standard one, gives the same bytes at any thread count.
    @Test func theFinerGridGivesIdenticalBytesAtAnyThreadCount() {
        let spec = FrameSpec(width: 1920, height: 1080)
        let bar = Blob(color: .white, center: SIMD2(0.5, 0.3137), radius: SIMD2(3, 0.003))
        let scene = Scene(base: [bar])
        #expect(FrameRenderer(spec: spec).needsFinerGrid(scene))
        let frames = [1, 2, 5].map { threads in
            var buffer = PixelBuffer(width: 1920, height: 1080, format: .rgba)
            FrameRenderer(spec: spec, threads: threads).render(scene, into: &buffer)
            return buffer.bytes
        }
        #expect(frames[0] == frames[1])
        #expect(frames[0] == frames[2])
    }

    func expectWithinTolerance(
        _ blobs: [Blob], spec: FrameSpec, label: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scene = Scene(base: blobs)
        expectWithinTolerance(scene: scene, spec: spec, label: label, sourceLocation: sourceLocation)
    }

    func expectWithinTolerance(
        scene: Scene, spec: FrameSpec, label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reference = ReferenceRenderer.render(scene, spec: spec, threads: 1)
        var buffer = PixelBuffer(width: spec.width, height: spec.height, format: .packed(depth: 8, alpha: false))
        FrameRenderer(spec: spec, threads: 1).render(scene, dither: false, into: &buffer)
        let error = errorAgainstReference(buffer, reference)
        #expect(
            error.max <= 2, "\(label): largest error \(error.max) levels at \(error.worst)",
            sourceLocation: sourceLocation)
        #expect(error.mean <= 0.5, "\(label): mean error \(error.mean) levels", sourceLocation: sourceLocation)
    }
}
