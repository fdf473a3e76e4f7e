/// The production path: DESIGN section 1 computed on a reduced working grid chosen
/// from σ (see ``WorkingGrid``), then one fused full-resolution pass.
///
/// It stays within the definition's tolerance (largest error 2/255, mean 0.5/255 with
/// dither off); ``ReferenceRenderer`` is the oracle the tests hold it to. A renderer
/// keeps its buffers between frames, so make one per frame size and reuse it.
/// It is not `Sendable`: the buffers it keeps serve one frame at a time, so the compiler
/// keeps it to one task or thread (for frames in parallel, make a renderer per thread).
package final class FrameRenderer {
    package let spec: FrameSpec
    package let threads: Int
    /// Summed over every frame rendered.
    package private(set) var times = StageTimes()

    /// The stages on the grid chosen from σ, which serves every scene whose rims it
    /// can sample.
    private let standard: GridStages
    /// The stages on a grid of at most ``WorkingGrid/finest`` pixels a cell, made for the
    /// first scene whose rims are too thin for the standard grid's cells (at 1080p and
    /// the default blur, a blob under about 44 pixels thin): only there can its rims be
    /// sampled at pixel centres, as the definition samples them.
    private var fine: GridStages?
    /// The last scene rendered, compiled: its program serves every frame with as many
    /// base and highlight blobs.
    private var compiled: CompiledScene

    package init(spec: FrameSpec, threads: Int = 1) {
        self.spec = spec
        self.threads = max(1, threads)
        standard = GridStages(spec: spec, grid: WorkingGrid(spec: spec))
        compiled = CompiledScene(Scene(base: []), width: spec.width, height: spec.height, mixing: spec.mixing)
    }

    /// The working grid chosen from σ.
    package var grid: WorkingGrid { standard.grid }

    /// The larger cell side in pixels of the working grid chosen from σ (1 means full
    /// resolution); a scene with rims too thin for it renders on cells of at most 16.
    package var cellSize: Double { grid.cellSize }

    /// Renders `scene` into `buffer`, whose size must match the spec. `frameIndex` only
    /// moves the dither pattern.
    ///
    /// The scene is compiled into the renderer's program once; later frames with as many
    /// base and highlight blobs (an animation's) only place their blobs in it.
    package func render(_ scene: Scene, frameIndex: Int = 0, dither: Bool = true, into buffer: inout PixelBuffer) {
        precondition(
            buffer.width == spec.width && buffer.height == spec.height, "buffer size differs from the frame spec")
        compiled.update(scene.resolvingColors(in: spec.colorSpace), width: spec.width, height: spec.height)
        stages(for: compiled).render(
            compiled, frameIndex: frameIndex, dither: dither, into: &buffer, threads: threads, times: &times)
    }

    /// Whether `scene` has rims too thin for the working grid chosen from σ, so that it
    /// renders on a grid of at most ``WorkingGrid/finest`` pixels a cell.
    package func needsFinerGrid(_ scene: Scene) -> Bool {
        !standard.grid.resolvesRims(of: CompiledScene(scene, width: spec.width, height: spec.height))
    }

    /// The standard stages, or the fine ones when `scene` has rims too thin for them.
    private func stages(for scene: CompiledScene) -> GridStages {
        if standard.grid.resolvesRims(of: scene) { return standard }
        if let fine { return fine }
        let made = GridStages(spec: spec, grid: WorkingGrid(spec: spec, largestCell: WorkingGrid.finest))
        fine = made
        return made
    }

    package func resetTimes() { times = StageTimes() }
}
