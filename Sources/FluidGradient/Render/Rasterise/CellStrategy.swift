/// One grid cell as the row loop hands it over: its spans and its row's classification.
struct GridCell {
    let column: CellSpan
    let row: CellSpan
    /// Each blob's coverage in the cell: 0 or 1 where fixed, −1 across its rim.
    let coverage: UnsafePointer<Float>
    /// How many rims cross the cell.
    let rims: Int
    /// The last blob present in the cell.
    let lastPresent: Int
    /// The sub-samples per axis its finest rim needs, or a pixel-centre count
    /// (see ``WorkingGrid/subsampleCount(for:)``).
    let subsamples: Int32
    /// The cell's index in the composited grid.
    let index: Int
}

/// How a cell's average composite is found. Each is exact, or checked against the
/// composite before it is trusted (see ``CellCompositor``).
enum CellStrategy {
    /// No rim crosses the cell: every coverage is fixed, one composite.
    case rimFree
    /// One rim: the composite on the chord between its coverage 0 and 1, at the mean
    /// coverage, where the composite follows the chord; else ``everySample``.
    case chord
    /// Two rims: the bilinear surface through the four corners of their coverages, at
    /// the means of `c`, `e` and `c·e`, where the composite follows it; else ``everySample``.
    case bilinearSurface
    /// The composite averaged over every sub-sample: three or more rims, or
    /// ``RasterOptions/samplesEveryRim``.
    case everySample
    /// A wide blob's thin rim at pixel centres: each pixel's composite for its share of
    /// the cell, in place.
    case pixelCentresInPlace
    /// A narrow blob at pixel centres: the cell without its rim blobs plus their
    /// effect, whose moments place and spread it on the grid (see ``CellMoment``).
    case pixelCentresWithMoments

    /// The strategy for `cell`. A pattern always gets the same one, since its coverages
    /// fix its rims and sub-samples; the pattern cache relies on that.
    @inline(__always)
    init(_ cell: GridCell, options: RasterOptions) {
        if cell.rims == 0 {
            self = .rimFree
        } else if cell.subsamples == WorkingGrid.pixelCentres {
            self = .pixelCentresWithMoments
        } else if WorkingGrid.isPixelCentres(cell.subsamples) {
            self = .pixelCentresInPlace
        } else if options.samplesEveryRim || cell.rims > 2 {
            self = .everySample
        } else {
            self = cell.rims == 1 ? .chord : .bilinearSurface
        }
    }
}

/// A cell's samples once its rim blobs' coverage is sampled into the scratch.
struct SampledCell {
    /// The pattern's program with its fixed blobs folded away.
    let program: UnsafePointer<CompiledScene.ReducedOperation>
    let length: Int
    /// Samples per row and rows of samples.
    let columns: Int
    let rows: Int
    /// The area the samples' weights add up to: `columns × rows` sub-samples, or the
    /// span's extent in pixels at pixel centres.
    let area: Float
    /// The first and the last rim blob.
    let first: Int
    let second: Int

    var count: Int { columns * rows }
}
