import Foundation

/// The reduced-resolution grid the production path composites and blurs on.
///
/// The frame is cut into square cells of `cellSize` pixels. Each grid value is the
/// average of the composite over a cell, so the grid holds the composite convolved
/// with a `k×k` box (variance `(k² − 1)/12` per axis for `k` pixel centres). The grid
/// is then blurred with a Gaussian of `gridSigma` cells and resampled bilinearly, which
/// on average adds a variance of `k²/6`; `gridSigma` is chosen so that the three
/// together have the variance σ² of DESIGN section 5, with the bilinear part counted
/// at `k²/8`, which halves its largest error (it varies between 0 and `k²/4`).
///
/// With σ ≈ 3.5 cells the interpolation error of a blurred step is below
/// `k²/16 · 0.242/σ²` ≈ 0.3 of an 8-bit level. When σ is under 7 pixels the cell is
/// one pixel and the path is the definition itself.
struct WorkingGrid: Equatable {
    /// The blur's standard deviation in cells that the cell size aims for.
    static let targetSigmaInCells = 3.5

    let frameWidth: Int
    let frameHeight: Int
    /// `k`, in pixels.
    let cellSize: Int
    /// σ of the grid blur, in cells.
    let gridSigma: Double
    /// The grid blur reaches `radius` cells each side (4σ: weight beyond below 10⁻⁴).
    let radius: Int
    /// Extra cells each side: the blur's reach plus one for interpolation.
    let margin: Int
    /// Cells across and down that cover the frame.
    let columns: Int
    let rows: Int

    init(spec: FrameSpec) {
        let sigma = spec.sigma
        let k = max(1, Int((sigma / WorkingGrid.targetSigmaInCells).rounded(.down)))
        let cellSize = k >= 2 ? k : 1
        let kk = Double(cellSize * cellSize)
        let boxVariance = (kk - 1) / 12
        let interpolationVariance = cellSize > 1 ? kk / 8 : 0
        self.frameWidth = spec.width
        self.frameHeight = spec.height
        self.cellSize = cellSize
        self.gridSigma = ((sigma * sigma - boxVariance - interpolationVariance) / kk).squareRoot()
        self.radius = max(1, Int((4 * gridSigma).rounded(.up)))
        self.margin = radius + 1
        self.columns = (spec.width + cellSize - 1) / cellSize
        self.rows = (spec.height + cellSize - 1) / cellSize
    }

    var gridWidth: Int { columns + 2 * margin }
    var gridHeight: Int { rows + 2 * margin }
    /// Blurred cells kept: from −1 to `columns` (and `rows`), enough to interpolate every pixel.
    var blurredWidth: Int { columns + 2 }
    var blurredHeight: Int { rows + 2 }

    /// The normalised Gaussian taps of the grid blur.
    var kernel: [Float] {
        ReferenceRenderer.gaussianKernel(sigma: gridSigma, radius: radius).map(Float.init)
    }

    /// Where pixel `index` falls between blurred cells: the left (or upper) cell's
    /// index in the blurred row and the fraction towards the next one.
    static func interpolation(pixels: Int, cellSize: Int) -> (cell: [Int32], fraction: [Float]) {
        var cells = [Int32](repeating: 0, count: pixels)
        var fractions = [Float](repeating: 0, count: pixels)
        for index in 0..<pixels {
            // The centre of pixel i in cell units, with cell 0's centre at 0.
            let u = (Double(index) + 0.5) / Double(cellSize) - 0.5
            let cell = u.rounded(.down)
            cells[index] = Int32(cell) + 1
            fractions[index] = Float(u - cell)
        }
        return (cells, fractions)
    }
}

/// How the samples of one grid cell lie along one axis.
struct CellSpan {
    /// The interval the samples spread over, before clamping.
    var lower: Float
    var upper: Float
    /// The interval the (clamped) samples fall in: what bounds their distance.
    var sampleLower: Float
    var sampleUpper: Float
    /// Share of the cell inside the frame (transparent edges), else 1.
    var inside: Float
    /// Clamp samples into `clampLower...clampUpper` (clamp edges).
    var clamps: Bool
    var clampLower: Float
    var clampUpper: Float

    /// The spans of the grid's cells along an axis of `length` pixels.
    static func spans(grid: WorkingGrid, length: Int, cells: Int, edges: EdgeMode) -> [CellSpan] {
        let k = Float(grid.cellSize), size = Float(length)
        return (0..<(cells + 2 * grid.margin)).map { gridIndex in
            let cell = Float(gridIndex - grid.margin)
            var span = CellSpan(
                lower: cell * k, upper: (cell + 1) * k, sampleLower: cell * k, sampleUpper: (cell + 1) * k,
                inside: 1, clamps: false, clampLower: 0.5, clampUpper: size - 0.5)
            switch edges {
            case .bleed:
                break
            case .transparent:
                span.lower = max(span.lower, 0)
                span.upper = min(span.upper, size)
                span.inside = max(span.upper - span.lower, 0) / k
                span.sampleLower = span.lower
                span.sampleUpper = max(span.upper, span.lower)
            case .clamp:
                span.clamps = true
                span.sampleLower = min(max(span.lower, 0.5), size - 0.5)
                span.sampleUpper = min(max(span.upper, 0.5), size - 0.5)
            }
            return span
        }
    }

    var middle: Float { (sampleLower + sampleUpper) / 2 }
    var halfExtent: Float { (sampleUpper - sampleLower) / 2 }

    /// Sample `index` of `count`, at the middle of its sub-interval.
    @inline(__always)
    func sample(_ index: Int, of count: Int) -> Float {
        let p = lower + (Float(index) + 0.5) * (upper - lower) / Float(count)
        return clamps ? min(max(p, clampLower), clampUpper) : p
    }
}

extension WorkingGrid {
    /// Composites the scene into `grid` (`gridWidth × gridHeight`, premultiplied): each
    /// cell holds the average of the composite over the cell.
    ///
    /// Each blob is first classified per cell as wholly inside (`d ≤ 0.9`, coverage 1),
    /// wholly outside (`d ≥ 1`, coverage 0) or crossing its feathered rim, from the
    /// distance at the cell's middle and the distance's Lipschitz bound (1 / smaller
    /// semi-axis). A cell no rim crosses is composited once. Where one rim crosses and
    /// everything after that blob blends affinely in its coverage (see
    /// ``CompiledScene/affineAfter``), the cell average equals the composite of the
    /// averaged coverage, found on an `n×n` sub-grid fine enough for the rim. Otherwise
    /// (two rims, or a rim under the highlight's overlay) the composite itself is
    /// averaged over the sub-grid.
    func rasterize(
        _ scene: CompiledScene, edges: EdgeMode, columnSpans: [CellSpan], rowSpans: [CellSpan],
        into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let width = gridWidth
        let blobCount = scene.blobs.count
        let subsamples = scene.blobs.map { subsampleCount(for: $0) }
        let grid = UncheckedBuffer(grid)
        parallelChunks(gridHeight, threads: threads, minimumChunk: 4) { rowRange in
            // coverage[b·width + column]: 0 or 1 when constant over the cell, −1 across the rim.
            var coverage = [Float](repeating: 0, count: max(blobCount, 1) * width)
            var stack = [SIMD4<Float>](repeating: .zero, count: scene.depth + 1)
            var sample = [Float](repeating: 0, count: max(blobCount, 1))
            coverage.withUnsafeMutableBufferPointer { coverage in
                stack.withUnsafeMutableBufferPointer { stack in
                    sample.withUnsafeMutableBufferPointer { sample in
                        for row in rowRange {
                            let rowSpan = rowSpans[row]
                            if rowSpan.inside == 0 {
                                for column in 0..<width { grid[row * width + column] = .zero }
                                continue
                            }
                            for (index, blob) in scene.blobs.enumerated() {
                                let line = coverage.baseAddress! + index * width
                                line.update(repeating: 0, count: width)
                                guard !blob.isEmpty else { continue }
                                classifyRow(blob, rowSpan: rowSpan, columnSpans: columnSpans, into: line)
                            }
                            for column in 0..<width {
                                let fraction = columnSpans[column].inside * rowSpan.inside
                                guard fraction > 0 else {
                                    grid[row * width + column] = .zero
                                    continue
                                }
                                let cell = CellSamples(column: columnSpans[column], row: rowSpan)
                                grid[row * width + column] = fraction * compositeCell(
                                    scene, cell: cell, column: column, width: width, coverage: coverage,
                                    subsamples: subsamples, sample: sample, stack: stack.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The average composite over one cell, given the blobs' classification.
    @inline(__always)
    private func compositeCell(
        _ scene: CompiledScene, cell: CellSamples, column: Int, width: Int,
        coverage: UnsafeMutableBufferPointer<Float>, subsamples: [Int],
        sample: UnsafeMutableBufferPointer<Float>, stack: UnsafeMutablePointer<SIMD4<Float>>
    ) -> SIMD4<Float> {
        var rims = 0, rimBlob = 0, lastPresent = -1, n = 1
        for blob in 0..<scene.blobs.count {
            let c = coverage[blob * width + column]
            if c != 0 { lastPresent = blob }
            if c < 0 {
                rims += 1
                rimBlob = blob
                n = max(n, subsamples[blob])
            }
        }
        if rims == 0 {
            return scene.composite(stack: stack) { coverage[$0 * width + column] }
        }
        if rims == 1, scene.affineAfter[rimBlob] || lastPresent == rimBlob {
            let blob = scene.blobs[rimBlob]
            var sum: Float = 0
            for j in 0..<n {
                let y = cell.row.sample(j, of: n)
                for i in 0..<n {
                    sum += blob.coverage(at: SIMD2(cell.column.sample(i, of: n), y))
                }
            }
            coverage[rimBlob * width + column] = sum / Float(n * n)
            return scene.composite(stack: stack) { coverage[$0 * width + column] }
        }
        var total = SIMD4<Float>.zero
        for blob in (lastPresent + 1)..<scene.blobs.count { sample[blob] = 0 }
        for j in 0..<n {
            let y = cell.row.sample(j, of: n)
            for i in 0..<n {
                let point = SIMD2(cell.column.sample(i, of: n), y)
                for blob in 0...lastPresent {
                    let c = coverage[blob * width + column]
                    sample[blob] = c < 0 ? scene.blobs[blob].coverage(at: point) : c
                }
                total += scene.composite(stack: stack) { sample[$0] }
            }
        }
        return total / Float(n * n)
    }

    /// Sub-samples per axis across a blob's rim: enough that the midpoint rule's error
    /// at the rim's two kinks, about `k / (8·n²·rim)` per cell, stays near 1%.
    func subsampleCount(for blob: PlacedBlob) -> Int {
        guard cellSize > 1, !blob.isEmpty else { return 1 }
        let rim = 0.1 * Double(min(blob.semiAxes.x, blob.semiAxes.y))
        let needed = (Double(cellSize) / (0.08 * max(rim, 0.01))).squareRoot().rounded(.up)
        return Int(min(max(needed, 1), Double(min(cellSize, 16))))
    }

    /// Marks each cell of one grid row: 1 inside the blob, −1 across its rim, 0 outside.
    private func classifyRow(
        _ blob: PlacedBlob, rowSpan: CellSpan, columnSpans: [CellSpan], into line: UnsafeMutablePointer<Float>
    ) {
        let top = blob.center.y - blob.semiAxes.y, bottom = blob.center.y + blob.semiAxes.y
        guard rowSpan.sampleUpper >= top, rowSpan.sampleLower <= bottom else { return }
        let left = blob.center.x - blob.semiAxes.x, right = blob.center.x + blob.semiAxes.x
        let lipschitz = max(blob.inverseSemiAxes.x, blob.inverseSemiAxes.y)
        let rowMiddle = rowSpan.middle, rowHalf = rowSpan.halfExtent
        for column in columnSpans.indices {
            let span = columnSpans[column]
            if span.sampleUpper < left { continue }
            if span.sampleLower > right { break }
            let reach = (span.halfExtent * span.halfExtent + rowHalf * rowHalf).squareRoot() * lipschitz
            let d = blob.distance(at: SIMD2(span.middle, rowMiddle))
            if d - reach >= 1 { continue }
            line[column] = d + reach <= 0.9 ? 1 : -1
        }
    }
}

/// The sample spans of one cell.
struct CellSamples {
    let column: CellSpan
    let row: CellSpan
}
