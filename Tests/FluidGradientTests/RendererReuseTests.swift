import FluidGradient
import Testing

/// A renderer compiles its scene's program once and keeps it, with its grids' buffers,
/// while the frames it renders have as many base and highlight blobs, placing only the
/// blobs again each frame. It must make the bytes a renderer made for the frame makes,
/// through frames of an animation, a scene of another shape and back, and a scene with a
/// rim thin enough to take the finer grid.
@Suite struct RendererReuseTests {
    @Test func aKeptRendererMakesTheBytesOfAFreshOne() throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 640
        preset.height = 360
        let animator = Animator(preset: preset)
        let spec = preset.frameSpec
        let thin = Scene(
            base: animator.scene(at: 2).base + [Blob(color: .white, center: SIMD2(0.5, 0.4), radius: SIMD2(3, 0.004))],
            highlights: animator.scene(at: 2).highlights)
        #expect(FrameRenderer(spec: spec).needsFinerGrid(thin), "the thin bar must take the finer grid")
        let scenes =
            (0..<4).map { animator.scene(at: Double($0) * 0.4) }
            + [randomScene(seed: 3, count: 9, highlights: 0, width: 640, height: 360), thin]
            + (4..<7).map { animator.scene(at: Double($0) * 0.4) }
        let kept = FrameRenderer(spec: spec, threads: 2)
        for (index, scene) in scenes.enumerated() {
            var reused = PixelBuffer(width: 640, height: 360, format: .rgba)
            var fresh = reused
            kept.render(scene, frameIndex: index, into: &reused)
            FrameRenderer(spec: spec, threads: 2).render(scene, frameIndex: index, into: &fresh)
            #expect(reused.bytes == fresh.bytes, "frame \(index)")
        }
    }
}
