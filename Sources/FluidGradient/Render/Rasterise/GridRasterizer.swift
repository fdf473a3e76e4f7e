import Foundation

extension WorkingGrid {
    /// The composited grid of `scene` in the frame this grid covers
    /// (`gridWidth × gridHeight`), as the renderer blurs it (pixel-centre cells' moments
    /// included).
    package func cellAverages(
        of scene: Scene, edges: EdgeMode, options: RasterOptions = .production
    ) -> [SIMD4<Float>] {
        var values = [SIMD4<Float>](repeating: .zero, count: gridWidth * gridHeight)
        values.withUnsafeMutableBufferPointer { values in
            rasterize(
                CompiledScene(scene, width: horizontal.length, height: vertical.length),
                columnSpans: CellSpan.spans(horizontal, edges: edges), rowSpans: CellSpan.spans(vertical, edges: edges),
                options: options, scratches: RasterScratchPool(), into: values, threads: 1)
        }
        return values
    }

    /// Composites the scene into `grid` (`gridWidth × gridHeight`, premultiplied): each
    /// cell holds the average of the composite over the cell (0 outside the frame with
    /// transparent edges; with clamp edges, the samples are clamped into the frame).
    ///
    /// Each blob is first classified per cell as wholly inside (`d ≤ 0.9`, coverage 1),
    /// wholly outside (`d ≥ 1`, coverage 0) or crossing its feathered rim, from the
    /// exact least and greatest `d²` over the cell's samples (see ``RasterRow/classify``).
    /// A cell no rim crosses is composited once, or copied from its left neighbour when
    /// every coverage is the same. Across a rim, each rim blob's coverage is sampled on
    /// an `n×n` sub-grid fine enough for the rim (or at the pixel centres, for a rim
    /// too thin for 16 sub-samples). Neighbouring cells along a rim usually share their
    /// pattern of fixed coverages, and per pattern:
    ///
    /// - one rim: the composite is affine in its coverage c through normal blends, so the
    ///   cell's average composite is `C(0) + (C(1) − C(0))·E[c]`. A later blend that is
    ///   not affine in c (the highlight layer's overlay over a base blob) is checked: if
    ///   its branch switches between c = 0 and 1, `C` is off the chord at ¼, ½ or ¾;
    /// - two rims, c and e: with blends affine in source and backdrop the composite is
    ///   bilinear, so the average follows from the four corners and `E[c]`, `E[e]` and
    ///   `E[c·e]` (their covariance included); otherwise the surface through the corners
    ///   is checked at every quarter point of the square of coverages but the corners;
    ///
    /// and where these do not hold, or three or more rims cross, the composite itself is
    /// averaged over the samples. So is every pixel-centre cell, each pixel weighted by
    /// its share of the cell, whose narrow content is then moved to its own position in
    /// the cell by its first moment and spread by its second (see ``depositMoments``). Each
    /// cell's way is a ``CellStrategy``.
    ///
    /// - Parameters:
    ///   - scene: The compiled scene.
    ///   - columnSpans: The spans of the grid's columns (``CellSpan/spans(_:edges:)``).
    ///   - rowSpans: The spans of its rows.
    ///   - options: Shortcuts taken or direct checks, for tests; production's by default.
    ///   - scratches: The working memory kept from frame to frame.
    ///   - grid: The composited grid, written whole.
    ///   - threads: Threads to split the rows over; the values do not depend on it.
    func rasterize(
        _ scene: CompiledScene, columnSpans: [CellSpan], rowSpans: [CellSpan], options: RasterOptions = .production,
        scratches: RasterScratchPool, into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        assert(columnSpans.count == gridWidth && rowSpans.count == gridHeight, "spans of another grid")
        assert(grid.count == gridWidth * gridHeight, "a grid of another size")
        scene.withView { view in
            columnSpans.withUnsafeBufferPointer { columnSpans in
                rowSpans.withUnsafeBufferPointer { rowSpans in
                    let rasterizer = GridRasterizer(
                        grid: self, scene: view, columnSpans: columnSpans, rowSpans: rowSpans, options: options)
                    rasterizer.run(into: grid, scratches: scratches, threads: threads)
                }
            }
        }
    }
}

/// Composites one scene into the cells of one working grid, row by row.
private struct GridRasterizer {
    let grid: WorkingGrid
    let scene: SceneView
    let columnSpans: SharedBuffer<CellSpan>
    let rowSpans: SharedBuffer<CellSpan>
    let compositor: CellCompositor
    let options: RasterOptions
    /// Per blob: the sub-samples of its rim (``WorkingGrid/subsampleCount(for:)``).
    let subsamples: [Int32]
    /// Per blob: the columns whose samples can reach its bounding box.
    let columnRanges: [Range<Int>]

    init(
        grid: WorkingGrid, scene: SceneView, columnSpans: UnsafeBufferPointer<CellSpan>,
        rowSpans: UnsafeBufferPointer<CellSpan>, options: RasterOptions
    ) {
        self.grid = grid
        self.scene = scene
        self.columnSpans = SharedBuffer(columnSpans)
        self.rowSpans = SharedBuffer(rowSpans)
        self.options = options
        compositor = CellCompositor(scene: scene, options: options)
        let width = grid.gridWidth
        subsamples = scene.blobs.map { Int32(grid.subsampleCount(for: $0)) }
        columnRanges = zip(scene.blobs, subsamples).map { blob, subsamples -> Range<Int> in
            let left = blob.center.x - blob.semiAxes.x, right = blob.center.x + blob.semiAxes.x
            let first = columnSpans.firstIndex { $0.sampleRange(subsamples).upper >= left } ?? width
            let end = columnSpans.firstIndex { $0.sampleRange(subsamples).lower > right } ?? width
            return blob.isEmpty ? 0..<0 : first..<max(first, end)
        }
    }

    /// Composites every row into `grid`, then adds the pixel-centre cells' moments.
    func run(into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, scratches: RasterScratchPool, threads: Int) {
        let width = self.grid.gridWidth, height = self.grid.gridHeight
        let output = SharedBuffer(grid)
        // Small grids are not worth waking threads for.
        let work = width * height * (scene.blobs.count + 2)
        let moments = CellMoments()
        scratches.beginFrame(scene, width: width)
        subsamples.withUnsafeBufferPointer { subsamples in
            columnRanges.withUnsafeBufferPointer { columnRanges in
                let perBlob = (subsamples: SharedBuffer(subsamples), columns: SharedBuffer(columnRanges))
                parallelChunks(height, threads: work < 40_000 ? 1 : threads, minimumChunk: 4) { rowRange in
                    let scratch = scratches.take(scene, width: width)
                    defer {
                        moments.add(scratch.moments)
                        scratch.moments.removeAll(keepingCapacity: true)
                        scratches.giveBack(scratch)
                    }
                    for rowIndex in rowRange {
                        rasterizeRow(
                            rowIndex, subsamples: perBlob.subsamples.buffer, columnRanges: perBlob.columns.buffer,
                            row: scratch.row, scratch: scratch,
                            into: output.pointer(at: rowIndex * width, length: width))
                    }
                }
            }
        }
        self.grid.depositMoments(
            moments.sorted(), columnSpans: columnSpans.buffer, rowSpans: rowSpans.buffer, into: grid)
    }

    /// Classifies grid row `rowIndex` into `row`, then composites its cells into `out`.
    @inline(__always)
    private func rasterizeRow(
        _ rowIndex: Int, subsamples: UnsafeBufferPointer<Int32>, columnRanges: UnsafeBufferPointer<Range<Int>>,
        row: RasterRow, scratch: RasterScratch, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let width = row.width, blobCount = row.blobCount
        let columnSpans = self.columnSpans.buffer, rowSpan = rowSpans[rowIndex]
        if rowSpan.inside == 0 {
            out.update(repeating: .zero, count: width)
            return
        }
        row.reset()
        for (index, blob) in scene.blobs.enumerated() where !columnRanges[index].isEmpty {
            row.classify(
                blob, index: index, subsamples: subsamples[index], rowSpan: rowSpan, columnSpans: columnSpans,
                columns: columnRanges[index], everyColumn: options.classifiesEveryColumn)
        }
        var previous = -2, previousValue = SIMD4<Float>.zero
        for column in 0..<width {
            let fraction = columnSpans[column].inside * rowSpan.inside
            guard fraction > 0 else {
                out[column] = .zero
                continue
            }
            let coverage = row.coverage + column * blobCount
            let rims = Int(row.rims[column])
            let value: SIMD4<Float>
            // A rim-free cell with the same coverages as its left neighbour has its composite.
            if rims == 0, previous == column - 1,
                memcmp(coverage, coverage - blobCount, blobCount * MemoryLayout<Float>.size) == 0
            {
                value = previousValue
            } else {
                let cell = GridCell(
                    column: columnSpans[column], row: rowSpan, coverage: coverage, rims: rims,
                    lastPresent: Int(row.lastPresent[column]), subsamples: row.subsamples[column],
                    index: rowIndex * width + column)
                value = compositor.composite(cell, scratch: scratch)
            }
            if rims == 0 {
                previous = column
                previousValue = value
            }
            out[column] = fraction * value
        }
    }
}
