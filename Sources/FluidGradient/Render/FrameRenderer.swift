import Dispatch

/// Seconds spent in each stage of the production path, summed over frames.
public struct StageTimes: Sendable {
    public var raster: Double = 0
    public var blur: Double = 0
    public var output: Double = 0

    public init() {}
}

/// The production path: DESIGN section 1 computed on a reduced working grid chosen
/// from σ (see ``WorkingGrid``), then one fused full-resolution pass.
///
/// It stays within the definition's tolerance (largest error 2/255, mean 0.5/255 with
/// dither off); ``ReferenceRenderer`` is the oracle the tests hold it to. A renderer
/// keeps its buffers between frames, so make one per frame size and reuse it.
/// One renderer renders one frame at a time: renders from several threads at once wait
/// for each other (for frames in parallel, make a renderer per thread).
public final class FrameRenderer: @unchecked Sendable {
    public let spec: FrameSpec
    public let threads: Int
    /// Summed over every frame rendered, whoever rendered it; read it when no frame is
    /// being rendered.
    public private(set) var times = StageTimes()
    /// Held for a whole frame: the buffers below are shared between frames.
    private let oneFrameAtATime = DispatchSemaphore(value: 1)

    package let grid: WorkingGrid
    private let kernels: (horizontal: [Float], vertical: [Float])
    private let columnSpans: [CellSpan]
    private let rowSpans: [CellSpan]
    private let outputPass: OutputPass
    private var gridValues: [SIMD4<Float>]
    private var horizontal: [SIMD4<Float>]
    private var blurred: [SIMD4<Float>]
    private var refineScratch: [SIMD4<Float>]
    private var refined: [SIMD4<Float>]

    public init(spec: FrameSpec, threads: Int = 1) {
        self.spec = spec
        self.threads = max(1, threads)
        grid = WorkingGrid(spec: spec)
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

    /// The working grid's larger cell side in pixels (1 means full resolution).
    public var cellSize: Double { grid.cellSize }

    /// Renders the laid-out layer tree `root` into `buffer`, whose size must match the spec.
    /// `frameIndex` only moves the dither pattern.
    public func render(_ root: Layer, frameIndex: Int = 0, dither: Bool = true, into buffer: PixelBuffer) {
        precondition(buffer.width == spec.width && buffer.height == spec.height, "buffer size differs from the frame spec")
        oneFrameAtATime.wait()
        defer { oneFrameAtATime.signal() }
        let scene = CompiledScene(root: root)
        var start = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { start = now }
            return Double(now - start) / 1e9
        }
        gridValues.withUnsafeMutableBufferPointer { values in
            grid.rasterize(scene, columnSpans: columnSpans, rowSpans: rowSpans, into: values, threads: threads)
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
        refined.withUnsafeBufferPointer { refined in
            buffer.withUnsafeMutableBytes { bytes in
                outputPass.run(
                    blurred: refined, format: buffer.format, dither: dither, frameIndex: frameIndex,
                    into: bytes, threads: threads)
            }
        }
        times.output += lap()
    }

    /// Renders a ``Scene``.
    public func render(_ scene: Scene, frameIndex: Int = 0, dither: Bool = true, into buffer: PixelBuffer) {
        render(scene.rootLayer(width: spec.width, height: spec.height), frameIndex: frameIndex, dither: dither, into: buffer)
    }

    public func resetTimes() { times = StageTimes() }
}
