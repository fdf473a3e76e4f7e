import FluidGradient
import Foundation
import Testing

/// Issue 37's target 3: with `mixing` linear or oklab, the production path stays within
/// DESIGN's tolerance of the reference renderer (dither off: largest error ≤ 2 levels,
/// mean ≤ 0.5), on the accuracy scenes, the built-in presets and the thin-rim sweep.
@Suite struct MixingAccuracyTests {
    static let mixed: [MixingSpace] = [.linear, .oklab]

    @Test(arguments: mixed, AccuracyTests.cases)
    func accuracyScenesStayWithinTheTolerance(mixing: MixingSpace, testCase: AccuracyTests.Case) throws {
        let spec = FrameSpec(
            width: testCase.width, height: testCase.height, blurExponent: testCase.exponent, edges: testCase.edges,
            background: try Fill(parsing: testCase.background), mixingSpace: mixing)
        let root = randomScene(seed: testCase.seed, highlights: 3, width: testCase.width, height: testCase.height)
        let error = Self.error(root: root, spec: spec)
        #expect(error.max <= 2, "largest error \(error.max) levels at \(error.worst)")
        #expect(error.mean <= 0.5, "mean error \(error.mean) levels")
    }

    @Test(arguments: mixed, [ColorSpace.srgb, .displayP3])
    func builtInPresetsStayWithinTheTolerance(mixing: MixingSpace, frame: ColorSpace) throws {
        for name in PresetFixtures.builtInNames {
            var preset = try PresetFixtures.builtIn(name)
            (preset.width, preset.height, preset.mixing, preset.colorSpace) = (160, 90, mixing, frame)
            let root = Animator(preset: preset).scene(at: 2.5)
            let error = Self.error(root: root, spec: preset.frameSpec)
            #expect(error.max <= 2, "\(name): largest error \(error.max) levels at \(error.worst)")
            #expect(error.mean <= 0.5, "\(name): mean error \(error.mean) levels")
        }
    }

    /// The expanded rows (8-bit RGBA over an opaque background on a reduced grid, the
    /// common case) convert back from the mixing space at the grid's nodes and spread the
    /// encoded values between them: every built-in preset with an opaque colour background,
    /// at 320x180 (cells of about 24 pixels), stays within the tolerance.
    @Test(arguments: mixed)
    func expandedRowsStayWithinTheTolerance(mixing: MixingSpace) throws {
        var checked = 0
        for name in PresetFixtures.builtInNames {
            var preset = try PresetFixtures.builtIn(name)
            (preset.width, preset.height, preset.mixing) = (320, 180, mixing)
            let spec = preset.frameSpec
            guard case .color(let color) = spec.background, color.alpha == 1, FrameRenderer(spec: spec).cellSize > 1
            else { continue }
            let scene = Animator(preset: preset).scene(at: 2.5)
            let reference = ReferenceRenderer.render(scene, spec: spec, threads: 2)
            var rgba = PixelBuffer(width: 320, height: 180, format: .rgba)
            FrameRenderer(spec: spec, threads: 2).render(scene, dither: false, into: &rgba)
            let error = errorAgainstReference(rgba, reference)
            #expect(error.max <= 2, "\(name): largest error \(error.max) levels at \(error.worst)")
            #expect(error.mean <= 0.5, "\(name): mean error \(error.mean) levels")
            checked += 1
        }
        #expect(checked >= 5, "only \(checked) presets take the expanded rows")
    }

    /// The thin-rim sweep: a blob a few pixels wide moved across a pixel in quarter steps,
    /// beside a black blob whose rim runs along it, at blurs whose cells are wider than it.
    @Test(arguments: mixed, [0.42, 0.5, 0.6])
    func thinRimsStayWithinTheTolerance(mixing: MixingSpace, exponent: Double) {
        for step in 0..<4 {
            let x = 0.3 + Double(step) * 0.25 / 320
            let thin = Blob(
                color: RGBA(red: 1, green: 0.9, blue: 0.3, alpha: 1), center: SIMD2(x, 0.5),
                radius: SIMD2(exponent < 0.44 ? 0.0028 : 0.005, 0.3))
            let black = Blob(color: .black, center: SIMD2(x + 0.19, 0.5), radius: SIMD2(0.2, 3))
            let spec = FrameSpec(
                width: 320, height: 180, blurExponent: exponent, background: .color(.black), mixingSpace: mixing)
            let root = Scene(base: [black, thin])
            let error = Self.error(root: root, spec: spec)
            #expect(error.max <= 2, "largest error \(error.max) levels at \(error.worst), step \(step)")
            #expect(error.mean <= 0.5, "mean error \(error.mean) levels, step \(step)")
        }
    }

    /// The control: the same scenes mixed in sRGB are far outside the tolerance of the
    /// reference mixed in linear light or OKLab, so the tolerance tells the modes apart.
    @Test(arguments: mixed)
    func mixingInSRGBFailsTheTolerance(mixing: MixingSpace) throws {
        var preset = try PresetFixtures.builtIn("aurora")
        (preset.width, preset.height) = (160, 90)
        let root = Animator(preset: preset).scene(at: 2.5)
        var spec = preset.frameSpec
        spec.mixingSpace = mixing
        let reference = ReferenceRenderer.render(root, spec: spec, threads: 2)
        var eight = PixelBuffer(width: 160, height: 90, format: .rgb24)
        FrameRenderer(spec: preset.frameSpec, threads: 2).render(root, dither: false, into: &eight)
        let error = errorAgainstReference(eight, reference)
        #expect(error.max > 2, "largest error \(error.max) levels")
    }

    static func error(root: Scene, spec: FrameSpec) -> (max: Double, mean: Double, worst: (x: Int, y: Int)) {
        let reference = ReferenceRenderer.render(root, spec: spec, threads: 2)
        var eight = PixelBuffer(
            width: spec.width, height: spec.height, format: .packed(depth: 8, alpha: spec.hasTransparency))
        FrameRenderer(spec: spec, threads: 2).render(root, dither: false, into: &eight)
        return errorAgainstReference(eight, reference)
    }
}
