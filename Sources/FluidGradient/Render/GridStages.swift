import Dispatch

/// The production path's stages on one working grid, with the buffers they keep
/// between frames: composite the cells, blur them, refine them, then the fused
/// full-resolution output pass.
final class GridStages {
    let grid: WorkingGrid
    private let kernels: (horizontal: [Float], vertical: [Float])
    private let columnSpans: [CellSpan]
    private let rowSpans: [CellSpan]
    private let outputPass: OutputPass
    private var gridValues: [SIMD4<Float>]
    private var horizontal: [SIMD4<Float>]
    private var blurred: [SIMD4<Float>]
    private var refineScratch: [SIMD4<Float>]
    private var refined: [SIMD4<Float>]
    /// The rasteriser's working memory, kept from frame to frame.
    private let scratches = RasterScratchPool()

    /// - Parameters:
    ///   - spec: The frame.
    ///   - grid: The working grid for `spec` that these stages run on.
    init(spec: FrameSpec, grid: WorkingGrid) {
        self.grid = grid
        kernels = (grid.horizontal.kernel, grid.vertical.kernel)
        columnSpans = CellSpan.spans(grid.horizontal, edges: spec.edges)
        rowSpans = CellSpan.spans(grid.vertical, edges: spec.edges)
        outputPass = OutputPass(spec: spec, grid: grid)
        gridValues = Array(repeating: .zero, count: grid.gridWidth * grid.gridHeight)
        horizontal = Array(repeating: .zero, count: grid.gridHeight * grid.blurredWidth)
        blurred = Array(repeating: .zero, count: grid.blurredWidth * grid.blurredHeight)
        refineScratch = Array(repeating: .zero, count: grid.blurredHeight * grid.refinedWidth)
        refined = Array(repeating: .zero, count: grid.refinedWidth * grid.refinedHeight)
    }

    /// Renders `scene` into `buffer` (the spec's size), adding each stage's seconds to `times`.
    ///
    /// - Parameters:
    ///   - scene: The compiled scene; its rims must be resolvable on this grid.
    ///   - frameIndex: Moves the dither pattern only.
    ///   - dither: Whether 8-bit output is dithered.
    ///   - buffer: The frame's pixels, written whole.
    ///   - threads: Threads to split each stage over.
    ///   - times: Where the stages' seconds are added.
    func render(
        _ scene: CompiledScene, frameIndex: Int, dither: Bool, into buffer: inout PixelBuffer, threads: Int,
        times: inout StageTimes
    ) {
        assert(grid.resolvesRims(of: scene), "a rim too thin for this grid's cells")
        var start = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { start = now }
            return Double(now - start) / 1e9
        }
        gridValues.withUnsafeMutableBufferPointer { values in
            grid.rasterize(
                scene, columnSpans: columnSpans, rowSpans: rowSpans, scratches: scratches, into: values,
                threads: threads)
        }
        times.raster += lap()
        gridValues.withUnsafeBufferPointer { values in
            horizontal.withUnsafeMutableBufferPointer { scratch in
                blurred.withUnsafeMutableBufferPointer { blurred in
                    grid.blur(values, kernels: kernels, scratch: scratch, into: blurred, threads: threads)
                }
            }
        }
        blurred.withUnsafeBufferPointer { blurred in
            refineScratch.withUnsafeMutableBufferPointer { scratch in
                refined.withUnsafeMutableBufferPointer { refined in
                    grid.refine(blurred, scratch: scratch, into: refined, threads: threads)
                }
            }
        }
        times.blur += lap()
        let format = buffer.format, matrix = buffer.matrix
        refined.withUnsafeBufferPointer { refined in
            buffer.withUnsafeMutableBytes { bytes in
                outputPass.run(
                    blurred: refined, format: format, matrix: matrix, dither: dither, frameIndex: frameIndex,
                    into: bytes, threads: threads)
            }
        }
        times.output += lap()
    }
}
