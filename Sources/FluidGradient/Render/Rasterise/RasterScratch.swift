/// Per-thread working memory of the rasteriser, sized for one scene's blobs and program
/// and one grid's rows; a ``RasterScratchPool`` keeps it from frame to frame.
final class RasterScratch {
    /// The accumulator stack for one sample: `stackCapacity` levels.
    let stack: UnsafeMutablePointer<SIMD4<Float>>
    let stackCapacity: Int
    /// The folded programs of the coverage patterns met so far in this frame.
    let patterns: PatternCache
    /// The classification of the grid row being composited.
    let row: RasterRow
    /// The frame of the ``RasterScratchPool`` whose patterns ``patterns`` holds.
    var frame = 0

    /// Sub-samples of one cell at most (17 pixels per axis: a span of at most 16 pixels
    /// cuts at most 17).
    static let maximumSamples = WorkingGrid.maximumCentres * WorkingGrid.maximumCentres
    /// Floats the coverage loop may write or read past a row's last sample: it goes
    /// four samples at a time (``CellCompositor``'s rim sampling).
    static let spill = 3
    /// The values of one plane of ``wideStack``: every sample of a cell, rounded up to
    /// whole groups of four, which the compositing loops go through.
    static let planeStride = (maximumSamples + 3) / 4 * 4
    /// A cell's sub-sample coordinates along each axis.
    let xs: UnsafeMutablePointer<Float>
    let ys: UnsafeMutablePointer<Float>
    /// One rim blob's `((x − cx)/a)²` at each `xs`, with room for the spill; the
    /// values past the last sample are read but never used.
    let squaredX: UnsafeMutablePointer<Float>
    let squaredXCapacity = WorkingGrid.maximumCentres + spill
    /// A pixel-centre cell's pixels along each axis: the length each counts for, and
    /// where it lies, in cells from the node (see ``CellSpan/pixels(into:weights:offsets:)``).
    let columnWeights: UnsafeMutablePointer<Float>
    let rowWeights: UnsafeMutablePointer<Float>
    let columnOffsets: UnsafeMutablePointer<Float>
    let rowOffsets: UnsafeMutablePointer<Float>
    /// Varying blobs' coverage at each sub-sample: `maximumSamples` per blob, then room
    /// for the last blob's spill, which also holds the rest of the last group of four
    /// the compositing reads.
    let sampled: UnsafeMutablePointer<Float>
    let sampledCapacity: Int
    /// The accumulator stack for all sub-samples at once, in planes: level `l`'s red,
    /// green, blue and alpha of sample `s` at `(4·l + channel)·planeStride + s`, so that
    /// the compositing loops take four samples per vector operation.
    let wideStack: UnsafeMutablePointer<Float>
    let wideStackCapacity: Int
    /// This chunk's pixel-centre cells' moments.
    var moments: [CellMoment] = []

    /// - Parameters:
    ///   - scene: The scene rasterised; its blob count, program and depth size the buffers.
    ///   - width: The cells in a grid row.
    init(scene: SceneView, width: Int) {
        stackCapacity = scene.depth + 1
        stack = .allocate(capacity: stackCapacity)
        patterns = PatternCache(scene: scene)
        row = RasterRow(width: width, blobCount: max(scene.blobs.count, 1))
        xs = .allocate(capacity: WorkingGrid.maximumCentres)
        ys = .allocate(capacity: WorkingGrid.maximumCentres)
        squaredX = .allocate(capacity: squaredXCapacity)
        squaredX.initialize(repeating: 0, count: squaredXCapacity)
        columnWeights = .allocate(capacity: WorkingGrid.maximumCentres)
        rowWeights = .allocate(capacity: WorkingGrid.maximumCentres)
        columnOffsets = .allocate(capacity: WorkingGrid.maximumCentres)
        rowOffsets = .allocate(capacity: WorkingGrid.maximumCentres)
        sampledCapacity = max(scene.blobs.count, 1) * Self.maximumSamples + Self.spill
        sampled = .allocate(capacity: sampledCapacity)
        sampled.initialize(repeating: 0, count: sampledCapacity)
        wideStackCapacity = stackCapacity * 4 * Self.planeStride
        wideStack = .allocate(capacity: wideStackCapacity)
        wideStack.initialize(repeating: 0, count: wideStackCapacity)
    }

    /// Whether this scratch serves `scene`'s frames on rows of `width` cells: the pattern
    /// cache's keys are the scene's coverages, and its programs the scene's folded.
    func fits(_ scene: SceneView, width: Int) -> Bool {
        row.width == width && patterns.fits(scene) && stackCapacity == scene.depth + 1
    }

    /// Sample `s` of the wide stack's bottom level, as one vector.
    @inline(__always)
    func composite(at s: Int) -> SIMD4<Float> {
        let stride = Self.planeStride
        return SIMD4(wideStack[s], wideStack[stride + s], wideStack[2 * stride + s], wideStack[3 * stride + s])
    }

    deinit {
        stack.deallocate()
        xs.deallocate()
        ys.deallocate()
        squaredX.deallocate()
        columnWeights.deallocate()
        rowWeights.deallocate()
        columnOffsets.deallocate()
        rowOffsets.deallocate()
        sampled.deallocate()
        wideStack.deallocate()
    }
}
