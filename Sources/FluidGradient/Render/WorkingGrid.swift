import Foundation

/// The reduced-resolution grid the production path composites and blurs on.
///
/// Each grid value is the average of the composite over a cell of `cellSize` pixels
/// (cells whose rims are sampled at pixel centres also move and spread their content
/// with their neighbours; see ``WorkingGrid/rasterize(_:columnSpans:rowSpans:options:into:threads:)``)
/// (a real number), which is the composite convolved with a box of variance `k²/12`
/// per axis, sampled at the cell's centre. The grid is blurred with a Gaussian of
/// `sigma` cells per axis, refined 2× by Catmull-Rom interpolation (whose error is of
/// fourth order, so the blurred field survives sampling at only 2 cells per σ), and
/// resampled bilinearly, which adds a variance between 0 and `(k/2)²/4` depending on
/// where a pixel falls. The grid σ is chosen so that these add up to the σ² of DESIGN
/// section 5, counting the bilinear part as `(k/2)²/8`, which halves its largest error.
///
/// Where the frame's edges fall inside their cells matters for transparent edges. A
/// step that falls a fraction φ into a cell is represented, once blurred, as if by an
/// extra variance `k²·(φ(1 − φ) − 1/12)`: from −k²/12 on a cell boundary to +k²/6 on a
/// cell centre, averaging the box's k²/12 over φ, which is what blob rims at random
/// positions see. The frame's edges are placed at `φ = ½ − 1/(2√3)` (a Gauss–Legendre
/// node), where that variance is exactly k²/12: the cells tile the frame in a whole
/// number of cells, centred at `(c + 1/(2√3))·k`.
///
/// Measured against the oracle, the largest error is below one 8-bit level on typical
/// frames and within DESIGN's two for thin blobs (BENCHMARKS.md). When σ is
/// under 8 pixels the cells are the pixels themselves, centred on pixel centres, with
/// no refinement, and the path is the definition itself.
package struct WorkingGrid: Equatable {
    /// The blur's standard deviation in cells that the cell size aims for (at least this).
    package static let targetSigmaInCells = 2.0

    /// One axis of the grid.
    package struct Axis: Equatable {
        /// Pixels along the axis.
        package let length: Int
        /// Pixels per cell.
        package let cellSize: Double
        /// Cell `c` is centred at `(c + offset)·cellSize`: ½ at full resolution (pixel
        /// centres), 1/(2√3) otherwise (see the type's discussion of edges).
        package let offset: Double
        /// Cells that reach into the frame: `0..<cells`.
        package let cells: Int
        /// σ of the grid blur along this axis, in cells.
        package let sigma: Double
        /// The grid blur reaches `radius` cells each side (4σ: weight beyond below 10⁻⁴).
        package let radius: Int
        /// 2 when the blurred grid is refined by Catmull-Rom before the bilinear pass, else 1.
        package let refinement: Int
        /// The first blurred cell kept: what the refinement and interpolation reach.
        package var firstKept: Int { refinement == 2 ? -2 : -1 }
        /// Extra cells each side: the blur's reach plus what is kept beyond the frame.
        package var margin: Int { radius - firstKept }
        /// Cells in the composited grid, margins included.
        package var gridCount: Int { cells + 2 * margin }
        /// Blurred cells kept: from `firstKept` to `cells − firstKept − 1`.
        package var blurredCount: Int { cells - 2 * firstKept }
        /// Nodes of the refined grid: every half cell from cell −1 to cell `cells − 1`
        /// (or the blurred cells, unrefined).
        package var refinedCount: Int { refinement == 2 ? 2 * cells + 1 : blurredCount }

        init(length: Int, sigma: Double, fullResolution: Bool, largestCell: Double) {
            self.length = length
            if fullResolution {
                cellSize = 1
                offset = 0.5
                cells = length
                refinement = 1
                self.sigma = sigma
            } else {
                let forSigma = (Double(length) * WorkingGrid.targetSigmaInCells / sigma).rounded(.up)
                let spans = max(1, Int(max(forSigma, (Double(length) / largestCell).rounded(.up))))
                let k = Double(length) / Double(spans)
                cellSize = k
                offset = 1 / (2 * 3.0.squareRoot())
                cells = spans + 1
                refinement = 2
                let fine = k / 2
                self.sigma = ((sigma * sigma - k * k / 12 - fine * fine / 8).squareRoot()) / k
            }
            radius = max(1, Int((4 * self.sigma).rounded(.up)))
        }

        /// The normalised Gaussian taps of the grid blur along this axis.
        package var kernel: [Float] {
            ReferenceRenderer.gaussianKernel(sigma: sigma, radius: radius).map(Float.init)
        }

        /// Where pixel `index` falls between refined nodes: the lower node and the
        /// fraction towards the next one.
        func interpolation() -> (cell: [Int32], fraction: [Float]) {
            var cells = [Int32](repeating: 0, count: length)
            var fractions = [Float](repeating: 0, count: length)
            for index in 0..<length {
                let u = (Double(index) + 0.5) / cellSize - offset
                // Refined node m sits at cell −1 + m/r; unrefined node m at cell m − 1.
                let v = (u + 1) * Double(refinement)
                let node = v.rounded(.down)
                cells[index] = Int32(node)
                fractions[index] = Float(v - node)
            }
            return (cells, fractions)
        }
    }

    package let horizontal: Axis
    package let vertical: Axis
    /// σ of DESIGN section 5, in pixels.
    package let sigmaPixels: Double

    /// The grid for `spec`: cells of about σ/2, or at most `largestCell` pixels.
    ///
    /// - Parameters:
    ///   - spec: The frame: its size and σ.
    ///   - largestCell: The largest cell side allowed, in pixels. ``finest`` is the
    ///     largest whose cells can be sampled at pixel centres, which a scene whose rims
    ///     are too thin for the sub-sample grid needs (see ``resolvesRims(of:)``).
    package init(spec: FrameSpec, largestCell: Double = .infinity) {
        let sigma = spec.sigma
        sigmaPixels = sigma
        // Below 4-pixel cells the saving is small, and a blob's rim can be thinner than a
        // pixel, so the definition's own pixel-centre sampling matters: stay exact.
        let fullResolution = sigma / WorkingGrid.targetSigmaInCells < 4
        horizontal = Axis(length: spec.width, sigma: sigma, fullResolution: fullResolution, largestCell: largestCell)
        vertical = Axis(length: spec.height, sigma: sigma, fullResolution: fullResolution, largestCell: largestCell)
    }

    /// The largest cell side, in pixels, whose cells can be sampled at pixel centres.
    package static let finest = Double(maximumCentres - 1)

    /// The larger cell side in pixels (1 means full resolution).
    package var cellSize: Double { max(horizontal.cellSize, vertical.cellSize) }
    package var gridWidth: Int { horizontal.gridCount }
    package var gridHeight: Int { vertical.gridCount }
    package var blurredWidth: Int { horizontal.blurredCount }
    package var blurredHeight: Int { vertical.blurredCount }
    package var refinedWidth: Int { horizontal.refinedCount }
    package var refinedHeight: Int { vertical.refinedCount }
}

/// How the samples of one grid cell lie along one axis.
struct CellSpan {
    /// The interval the samples spread over, before clamping.
    var lower: Float
    var upper: Float
    /// The interval the (clamped) samples fall in: what bounds their distance.
    var sampleLower: Float
    var sampleUpper: Float
    /// The same for a cell sampled at pixel centres: the first and last (clamped) centres
    /// of the pixels the span overlaps, which may lie up to half a pixel beyond it. The
    /// blobs that need pixel centres are classified over it, so that a cell sharing a
    /// pixel with its neighbour sees a blob covering that pixel's centre, not only its
    /// own span; the others keep the span's samples (a wide blob's coverage changes
    /// little within half a pixel, and such a pixel counts only for its share of the cell).
    var pixelLower: Float
    var pixelUpper: Float
    /// Share of the cell inside the frame with transparent edges (the samples cover
    /// that share only); 1 otherwise.
    var inside: Float
    /// Clamp samples into `clampLower...clampUpper` (clamp edges).
    var clamps: Bool
    var clampLower: Float
    var clampUpper: Float
    /// The cell's node and side, whatever the edges clip: where a sample at the
    /// unclamped position `p` lies in the cell is `(p − centre)/size`, in cells.
    var centre: Float
    var size: Float

    /// The spans of the grid's cells along one axis.
    static func spans(_ axis: WorkingGrid.Axis, edges: EdgeMode) -> [CellSpan] {
        let k = axis.cellSize, size = Float(axis.length)
        return (0..<axis.gridCount).map { gridIndex in
            let centre = (Double(gridIndex - axis.margin) + axis.offset) * k
            let lower = Float(centre - k / 2), upper = Float(centre + k / 2)
            var span = CellSpan(
                lower: lower, upper: upper, sampleLower: lower, sampleUpper: upper, pixelLower: 0, pixelUpper: 0,
                inside: 1, clamps: false, clampLower: 0.5, clampUpper: size - 0.5, centre: Float(centre), size: Float(k))
            switch edges {
            case .bleed:
                break
            case .transparent:
                span.lower = max(lower, 0)
                span.upper = max(min(upper, size), span.lower)
                span.inside = (span.upper - span.lower) / Float(k)
                span.sampleLower = span.lower
                span.sampleUpper = span.upper
            case .clamp:
                span.clamps = true
                span.sampleLower = span.clamped(lower)
                span.sampleUpper = span.clamped(upper)
            }
            span.pixelLower = span.clamped(span.firstPixel + 0.5)
            span.pixelUpper = span.clamped(span.lastPixel + 0.5)
            return span
        }
    }

    /// The interval the samples fall in, for `subsamples` per axis (or pixel centres).
    @inline(__always)
    func sampleRange(_ subsamples: Int32) -> (lower: Float, upper: Float) {
        WorkingGrid.isPixelCentres(subsamples) ? (pixelLower, pixelUpper) : (sampleLower, sampleUpper)
    }

    /// A position as sampled: clamped into the frame with clamp edges.
    @inline(__always)
    func clamped(_ p: Float) -> Float { clamps ? min(max(p, clampLower), clampUpper) : p }

    /// The first and last pixels the span overlaps (pixel `j` covers `[j, j + 1)`): the
    /// pixels ``pixels(into:weights:offsets:)`` samples, and whose centres bound
    /// `pixelLower...pixelUpper`.
    var firstPixel: Float { lower.rounded(.down) }
    var lastPixel: Float { max(upper.rounded(.up) - 1, firstPixel) }

    /// Sample `index` of `count`, at the middle of its sub-interval.
    @inline(__always)
    func sample(_ index: Int, of count: Int) -> Float {
        clamped(lower + (Float(index) + 0.5) * (upper - lower) / Float(count))
    }

    /// Writes `count` evenly spread sample positions along this axis into `positions`.
    @inline(__always)
    func samples(_ count: Int, into positions: UnsafeMutablePointer<Float>) {
        for index in 0..<count { positions[index] = sample(index, of: count) }
    }

    /// The pixels the span overlaps, for a cell sampled at pixel centres, and returns
    /// how many there are. Pixel `j` covers `[j, j + 1)` and is sampled at its centre
    /// (clamped, with clamp edges); it counts for the length of its overlap with the
    /// span (`weights`), and that overlap's middle, before clamping, is where it lies
    /// in the cell (`offsets`, in cells from the node; with clamp edges a pixel beyond
    /// the frame stands for the content repeated there). A pixel cut by a cell boundary
    /// is so shared between the two cells as its area is, whether the neighbour is
    /// sampled at pixel centres or not.
    @inline(__always)
    func pixels(
        into positions: UnsafeMutablePointer<Float>, weights: UnsafeMutablePointer<Float>, offsets: UnsafeMutablePointer<Float>
    ) -> Int {
        var pixel = firstPixel, n = 0
        while pixel < upper, n < WorkingGrid.maximumCentres {
            let start = max(pixel, lower), end = min(pixel + 1, upper)
            positions[n] = clamped(pixel + 0.5)
            weights[n] = end - start
            offsets[n] = ((start + end) / 2 - centre) / size
            n += 1
            pixel += 1
        }
        return n
    }
}

extension WorkingGrid {
    /// The composited grid of a laid-out layer tree (`gridWidth × gridHeight`), as
    /// the renderer blurs it (pixel-centre cells' moments included).
    package func cellAverages(
        of root: Layer, edges: EdgeMode, options: RasterOptions = .production
    ) -> [SIMD4<Float>] {
        var values = [SIMD4<Float>](repeating: .zero, count: gridWidth * gridHeight)
        values.withUnsafeMutableBufferPointer { values in
            rasterize(
                CompiledScene(root: root), columnSpans: CellSpan.spans(horizontal, edges: edges),
                rowSpans: CellSpan.spans(vertical, edges: edges), options: options, into: values, threads: 1)
        }
        return values
    }

    /// Composites the scene into `grid` (`gridWidth × gridHeight`, premultiplied): each
    /// cell holds the average of the composite over the cell (0 outside the frame with
    /// transparent edges; with clamp edges, the samples are clamped into the frame).
    ///
    /// Each blob is first classified per cell as wholly inside (`d ≤ 0.9`, coverage 1),
    /// wholly outside (`d ≥ 1`, coverage 0) or crossing its feathered rim, from the
    /// exact least and greatest `d²` over the cell's samples (see ``classifyRow``).
    /// A cell no rim crosses is composited once, or copied from its left neighbour when
    /// every coverage is the same. Across a rim, each rim blob's coverage is sampled on
    /// an `n×n` sub-grid fine enough for the rim (or at the pixel centres, for a rim
    /// too thin for 16 sub-samples). Neighbouring cells along a rim usually share their
    /// pattern of fixed coverages, and per pattern:
    ///
    /// - one rim: the composite is affine in its coverage c through normal blends, so the
    ///   cell's average composite is `C(0) + (C(1) − C(0))·E[c]`. A later blend that is
    ///   not affine in c (the highlight's overlay over a base blob, or a darken, lighten,
    ///   hard light or soft light closing a group that holds the rim blob, even when no
    ///   blob follows it) is checked: if its branch switches between c = 0 and 1, `C` is
    ///   off the chord at ¼, ½ or ¾;
    /// - two rims, c and e: with blends affine in source and backdrop the composite is
    ///   bilinear, so the average follows from the four corners and `E[c]`, `E[e]` and
    ///   `E[c·e]` (their covariance included); otherwise the surface through the corners
    ///   is checked at every quarter point of the square of coverages but the corners;
    ///
    /// and where these do not hold, or three or more rims cross, the composite itself is
    /// averaged over the samples. So is every pixel-centre cell, each pixel weighted by
    /// its share of the cell, whose narrow content is then moved to its own position in
    /// the cell by its first moment and spread by its second (see ``depositMoments``).
    func rasterize(
        _ scene: CompiledScene, columnSpans: [CellSpan], rowSpans: [CellSpan], options: RasterOptions = .production,
        into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        scene.withView { view in
            columnSpans.withUnsafeBufferPointer { columnSpans in
                rowSpans.withUnsafeBufferPointer { rowSpans in
                    rasterize(
                        view, columnSpans: columnSpans, rowSpans: rowSpans, options: options, into: grid,
                        threads: threads)
                }
            }
        }
    }

    private func rasterize(
        _ scene: SceneView, columnSpans: UnsafeBufferPointer<CellSpan>, rowSpans: UnsafeBufferPointer<CellSpan>,
        options: RasterOptions, into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let width = gridWidth
        let subsamples = scene.blobs.map { Int32(subsampleCount(for: $0)) }
        // Each blob's columns: those whose samples can reach its bounding box.
        let columnRanges = zip(scene.blobs, subsamples).map { blob, subsamples -> Range<Int> in
            let left = blob.center.x - blob.semiAxes.x, right = blob.center.x + blob.semiAxes.x
            let first = columnSpans.firstIndex { $0.sampleRange(subsamples).upper >= left } ?? width
            let end = columnSpans.firstIndex { $0.sampleRange(subsamples).lower > right } ?? width
            return blob.isEmpty ? 0..<0 : first..<max(first, end)
        }
        subsamples.withUnsafeBufferPointer { subsamples in
            columnRanges.withUnsafeBufferPointer { columnRanges in
                rasterizeRows(
                    scene, columnSpans: columnSpans, rowSpans: rowSpans, subsamples: subsamples, columnRanges: columnRanges,
                    options: options, into: grid, threads: threads)
            }
        }
    }

    private func rasterizeRows(
        _ scene: SceneView, columnSpans: UnsafeBufferPointer<CellSpan>, rowSpans: UnsafeBufferPointer<CellSpan>,
        subsamples: UnsafeBufferPointer<Int32>, columnRanges: UnsafeBufferPointer<Range<Int>>, options: RasterOptions,
        into grid: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let width = gridWidth, blobCount = max(scene.blobs.count, 1)
        let grid = SharedBuffer(grid)
        let shared = SharedBuffer(columnSpans), rows = SharedBuffer(rowSpans)
        let perBlob = (subsamples: SharedBuffer(subsamples), columns: SharedBuffer(columnRanges))
        // Small grids are not worth waking threads for.
        let work = gridWidth * gridHeight * (scene.blobs.count + 2)
        let moments = CellMoments()
        parallelChunks(gridHeight, threads: work < 40_000 ? 1 : threads, minimumChunk: 4) { rowRange in
            let columnSpans = shared.buffer, rowSpans = rows.buffer
            let subsamples = perBlob.subsamples.buffer, columnRanges = perBlob.columns.buffer
            let row = RasterRow(width: width, blobCount: blobCount)
            let scratch = RasterScratch(scene: scene)
            defer { moments.add(scratch.moments) }
            for rowIndex in rowRange {
                let rowSpan = rowSpans[rowIndex]
                let out = grid.pointer(at: rowIndex * width, length: width)
                if rowSpan.inside == 0 {
                    out.update(repeating: .zero, count: width)
                    continue
                }
                row.reset()
                for (index, blob) in scene.blobs.enumerated() where !columnRanges[index].isEmpty {
                    classifyRow(blob, index: index, subsamples: subsamples[index], rowSpan: rowSpan, columnSpans: columnSpans, columns: columnRanges[index], everyColumn: options.classifiesEveryColumn, into: row)
                }
                var previous = -2, previousValue = SIMD4<Float>.zero
                for column in 0..<width {
                    let fraction = columnSpans[column].inside * rowSpan.inside
                    guard fraction > 0 else {
                        out[column] = .zero
                        continue
                    }
                    let cell = row.coverage + column * blobCount
                    let rims = Int(row.rims[column])
                    let value: SIMD4<Float>
                    // A rim-free cell with the same coverages as its left neighbour has its composite.
                    if rims == 0, previous == column - 1,
                        memcmp(cell, cell - blobCount, blobCount * MemoryLayout<Float>.size) == 0
                    {
                        value = previousValue
                    } else {
                        value = compositeCell(
                            scene, samples: CellSamples(column: columnSpans[column], row: rowSpan), coverage: cell,
                            rims: rims, lastPresent: Int(row.lastPresent[column]), subsamples: row.subsamples[column],
                            index: rowIndex * width + column, samplesEveryRim: options.samplesEveryRim, scratch: scratch)
                    }
                    if rims == 0 {
                        previous = column
                        previousValue = value
                    }
                    out[column] = fraction * value
                }
            }
        }
        depositMoments(moments.sorted(), columnSpans: columnSpans, rowSpans: rowSpans, into: grid.mutableBuffer)
    }

    /// Adds each pixel-centre cell's moments to the grid, per axis, so that the cell's
    /// narrow effect is blurred from where it lies and with the spread it has:
    ///
    /// - the first moment `m` (in cells) as a dipole, which moves the content by `m`
    ///   without changing its sum: `+m/2` on the next cell and `−m/2` on the previous one,
    ///   or, where one of them is beyond the grid or outside the frame with transparent
    ///   edges (which stays empty), `±m` on the other and `∓m` on the cell itself;
    /// - the spread `s` (see ``CellMoment``) as a discrete second difference, `+s/2` on
    ///   each neighbour and `−s` on the cell, which changes neither the sum nor the
    ///   first moment; where a neighbour is missing it is left out. Without it such an
    ///   effect was blurred too little: a 7.8-pixel bar at σ 12.6 pixels peaked 0.9
    ///   levels high (0.4 with it).
    ///
    /// The cells are taken in grid order, so the sums do not depend on how rows were
    /// split over threads.
    private func depositMoments(
        _ moments: [CellMoment], columnSpans: UnsafeBufferPointer<CellSpan>,
        rowSpans: UnsafeBufferPointer<CellSpan>, into grid: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        let width = gridWidth, height = gridHeight
        func holds(column: Int, row: Int) -> Bool {
            (0..<width).contains(column) && (0..<height).contains(row)
                && columnSpans[column].inside * rowSpans[row].inside > 0
        }
        func deposit(
            _ m: SIMD4<Float>, spread: SIMD4<Float>, at index: Int, column: Int, row: Int,
            step: (column: Int, row: Int), stride: Int
        ) {
            let next = holds(column: column + step.column, row: row + step.row)
            let previous = holds(column: column - step.column, row: row - step.row)
            switch (next, previous) {
            case (true, true):
                grid[index + stride] += m * 0.5 + spread * 0.5
                grid[index - stride] += spread * 0.5 - m * 0.5
                grid[index] -= spread
            case (true, false):
                grid[index + stride] += m
                grid[index] -= m
            case (false, true):
                grid[index - stride] -= m
                grid[index] += m
            case (false, false):
                break
            }
        }
        for moment in moments {
            let index = moment.index, row = index / width, column = index % width
            // The cell's share of the frame, as its value is weighted in the grid.
            let fraction = columnSpans[column].inside * rowSpans[row].inside
            deposit(
                fraction * moment.alongX, spread: fraction * moment.spreadX, at: index, column: column, row: row,
                step: (1, 0), stride: 1)
            deposit(
                fraction * moment.alongY, spread: fraction * moment.spreadY, at: index, column: column, row: row,
                step: (0, 1), stride: width)
        }
    }

    /// The average composite over one cell, given the blobs' classification in `coverage`.
    /// A pixel-centre cell also adds its effect's moments to `scratch.moments` under
    /// its grid `index`.
    @inline(__always)
    private func compositeCell(
        _ scene: SceneView, samples: CellSamples, coverage: UnsafeMutablePointer<Float>, rims: Int, lastPresent: Int,
        subsamples: Int32, index: Int, samplesEveryRim: Bool, scratch: RasterScratch
    ) -> SIMD4<Float> {
        let stack = scratch.stack
        // The program with every fixed blob folded away, and what follows from it, depend
        // only on the pattern of fixed coverages, which recurs along a rim and from row to row.
        let entry = scratch.patterns.entry(for: coverage)
        if rims == 0 {
            if !entry.pointee.hasTerms {
                entry.pointee.none = scene.composite(stack: stack) { coverage[$0] }
                entry.pointee.hasTerms = true
            }
            return entry.pointee.none
        }
        if !entry.pointee.isFolded {
            entry.pointee.programLength = scene.reduce(coverage: coverage, into: entry.pointee.program)
            entry.pointee.isFolded = true
        }
        let program = UnsafePointer(entry.pointee.program), length = entry.pointee.programLength
        let atPixelCentres = WorkingGrid.isPixelCentres(subsamples)
        let columns: Int, rows: Int, width: Float, height: Float
        if atPixelCentres {
            columns = samples.column.pixels(into: scratch.xs, weights: scratch.columnWeights, offsets: scratch.columnOffsets)
            rows = samples.row.pixels(into: scratch.ys, weights: scratch.rowWeights, offsets: scratch.rowOffsets)
            width = samples.column.upper - samples.column.lower
            height = samples.row.upper - samples.row.lower
        } else {
            columns = Int(subsamples)
            rows = columns
            samples.column.samples(columns, into: scratch.xs)
            samples.row.samples(rows, into: scratch.ys)
            width = Float(columns)
            height = width
        }
        // Each rim blob's coverage at each sample; the first and second rim blobs.
        let stride = RasterScratch.maximumSamples
        var first = -1, second = -1
        for blob in 0...lastPresent where coverage[blob] < 0 {
            if first < 0 { first = blob } else { second = blob }
            // d² is a term in x plus a term in y: each is computed once per column or row of samples.
            let placed = scene.blobs[blob], out = scratch.sampled + blob * stride
            let alongX = scratch.squaredX
            for i in 0..<columns {
                let q = (scratch.xs[i] - placed.center.x) * placed.inverseSemiAxes.x
                alongX[i] = q * q
            }
            for j in 0..<rows {
                let q = (scratch.ys[j] - placed.center.y) * placed.inverseSemiAxes.y
                let row = out + j * columns, y2 = q * q
                guard y2 < 1 else {
                    row.update(repeating: 0, count: columns)
                    continue
                }
                // Four at a time, past the row's end too: the next row overwrites what spills
                // into it, and the buffers have room for the last row's spill.
                var i = 0
                while i < columns {
                    let d2 = UnsafeRawPointer(alongX + i).loadUnaligned(as: SIMD4<Float>.self) + y2
                    UnsafeMutableRawPointer(row + i).storeBytes(of: PlacedBlob.coverage(squaredDistances: d2), as: SIMD4<Float>.self)
                    i += 4
                }
            }
        }
        // Pixel-centre cells composite every sample: their contribution is weighted by
        // pixel (and, for a narrow blob, placed and spread by its moments: see
        // ``depositMoments``), which needs each sample's composite.
        let usesShortcuts = !samplesEveryRim && !atPixelCentres
        if rims == 1, usesShortcuts {
            let rimBlob = first, sampled = scratch.sampled + rimBlob * stride
            var sum: Float = 0
            for s in 0..<(columns * rows) { sum += sampled[s] }
            let mean = sum / (width * height)
            // The composites at the rim's coverage 0 and 1 under this pattern, and whether the
            // composite is affine in the coverage between them: then the cell's average
            // composite lies on the chord, at the average coverage. A blend that is not affine
            // in it (an overlay whose branch switches at some coverage) bends the composite
            // there, which takes it off the chord at coverage ½; two such blends could bend it
            // back at ½, but not at ¼ and ¾ as well.
            if !entry.pointee.hasTerms {
                let pattern = PatternComposite(scene: scene, program: program, length: length, coverage: coverage, stack: stack, first: rimBlob)
                let none = pattern.value(0), full = pattern.value(1)
                entry.pointee.none = none
                entry.pointee.full = full
                func onChord(_ c: Float) -> Bool { WorkingGrid.isClose(pattern.value(c), none + (full - none) * c) }
                entry.pointee.isLinear = scene.affineAfter[rimBlob] || (onChord(0.5) && onChord(0.25) && onChord(0.75))
                entry.pointee.hasTerms = true
            }
            if entry.pointee.isLinear { return entry.pointee.none + (entry.pointee.full - entry.pointee.none) * mean }
        }
        if rims == 2, usesShortcuts {
            // With only blends affine in source and backdrop, the composite is bilinear in the
            // two coverages c, e: its average over the cell follows from the composites at the
            // four corners and the averages of c, e and c·e (their covariance included).
            if !entry.pointee.hasTerms {
                let pattern = PatternComposite(
                    scene: scene, program: program, length: length, coverage: coverage, stack: stack, first: first, second: second)
                let origin = pattern.value(0, 0), alongFirst = pattern.value(1, 0), alongSecond = pattern.value(0, 1)
                entry.pointee.none = origin
                entry.pointee.full = alongFirst - origin
                entry.pointee.second = alongSecond - origin
                entry.pointee.both = pattern.value(1, 1) - alongFirst - alongSecond + origin
                // A blend that is not affine (an overlay whose branch switches inside the
                // square of coverages) bends the composite off the bilinear surface through
                // the corners. As for one rim, a bend can come back to the surface at a
                // middle, so the check runs over the square's quarters: every point of the
                // 5 × 5 lattice but the corners.
                let (a, b, d) = (entry.pointee.full, entry.pointee.second, entry.pointee.both)
                func onSurface(_ c: Float, _ e: Float) -> Bool {
                    WorkingGrid.isClose(pattern.value(c, e), origin + a * c + b * e + d * (c * e))
                }
                entry.pointee.isLinear = scene.isMultilinear(program, count: length)
                    || WorkingGrid.quarterLattice.allSatisfy { onSurface($0.x, $0.y) }
                entry.pointee.hasTerms = true
            }
            if entry.pointee.isLinear {
                let c = scratch.sampled + first * stride, e = scratch.sampled + second * stride
                var sumC: Float = 0, sumE: Float = 0, sumCE: Float = 0
                for s in 0..<(columns * rows) {
                    sumC += c[s]
                    sumE += e[s]
                    sumCE += c[s] * e[s]
                }
                return entry.pointee.none + (entry.pointee.full * sumC + entry.pointee.second * sumE + entry.pointee.both * sumCE) / (width * height)
            }
        }
        // Several rims, a blend that is not affine in them, or a pixel-centre cell: average
        // the composite itself over the samples.
        scene.compositeSamples(
            program, count: length, samples: columns * rows, stride: stride, coverage: coverage, sampled: scratch.sampled,
            stack: scratch.wideStack)
        guard atPixelCentres else {
            var total = SIMD4<Float>.zero
            for s in 0..<(columns * rows) { total += scratch.wideStack[s] }
            return total / Float(columns * rows)
        }
        guard subsamples == WorkingGrid.pixelCentres else {
            // A wide blob's thin rim: the pixels, each for its share of the cell, in place.
            var total = SIMD4<Float>.zero
            for j in 0..<rows {
                var rowTotal = SIMD4<Float>.zero
                for i in 0..<columns { rowTotal += scratch.wideStack[j * columns + i] * scratch.columnWeights[i] }
                total += rowTotal * scratch.rowWeights[j]
            }
            return total / (width * height)
        }
        // At pixel centres the varying blobs count per pixel, while what lies under them
        // stays the cell's own: the cell without the varying blobs plus their effect
        // summed over the pixels, each for its share of the cell. That effect is narrower
        // than the cell, so where it lies in the cell and how far it spreads matter: its
        // first and second moments about the cell's node, in cells, go with it.
        // A pattern at pixel centres never takes the shortcuts, so `none` is free for this.
        if !entry.pointee.hasTerms {
            entry.pointee.none = scene.composite(program, count: length, stack: stack) { coverage[$0] < 0 ? 0 : coverage[$0] }
            entry.pointee.hasTerms = true
        }
        let without = entry.pointee.none, composites = scratch.wideStack
        var effect = SIMD4<Float>.zero, moment = CellMoment(index: index)
        for j in 0..<rows {
            var rowEffect = SIMD4<Float>.zero, rowMoment = SIMD4<Float>.zero, rowSecond = SIMD4<Float>.zero
            for i in 0..<columns {
                let offset = scratch.columnOffsets[i]
                let pixel = (composites[j * columns + i] - without) * scratch.columnWeights[i]
                rowEffect += pixel
                rowMoment += pixel * offset
                rowSecond += pixel * (offset * offset)
            }
            let weight = scratch.rowWeights[j], offset = scratch.rowOffsets[j]
            effect += rowEffect * weight
            moment.alongX += rowMoment * weight
            moment.spreadX += rowSecond * weight
            moment.alongY += rowEffect * (weight * offset)
            moment.spreadY += rowEffect * (weight * offset * offset)
        }
        let area = width * height
        scratch.moments.append(moment.normalized(effect: effect, area: area))
        return without + effect / area
    }

    /// The points `(i/4, j/4)` of the unit square but its corners, middles first (a bend
    /// shows there most often, and the check stops at the first point off the surface).
    static let quarterLattice: [SIMD2<Float>] = {
        let all = (0...4).flatMap { i in (0...4).map { j in SIMD2<Float>(Float(i), Float(j)) / 4 } }
        let inner = all.filter { $0 != SIMD2(0, 0) && $0 != SIMD2(0, 1) && $0 != SIMD2(1, 0) && $0 != SIMD2(1, 1) }
        return inner.sorted { (abs($0.x - 0.5) + abs($0.y - 0.5)) < (abs($1.x - 0.5) + abs($1.y - 0.5)) }
    }()

    /// Whether `a` and `b` agree to 10⁻⁴ in every component: far below a level, far above rounding.
    @inline(__always)
    static func isClose(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        let d = (a - b) * (a - b)
        return max(max(d.x, d.y), max(d.z, d.w)) <= 1e-8
    }

    /// Sub-samples per axis across a blob's rim: enough that the midpoint rule's error
    /// at the rim's two kinks, about `k / (8·n²·rim)` per cell, stays near 1%.
    ///
    /// A rim too thin for that (see ``needsPixelCentres(_:)``) is sampled at the pixel
    /// centres, as the definition samples it; its coverage then counts for the pixels it
    /// covers, each for its share of the cell. A blob narrower than two cells also moves
    /// and spreads its effect by its moments (``pixelCentres``); a wider one's rim stays
    /// in place (``pixelCentresInPlace``), since the cells beside it already carry where
    /// it lies, and moving it again was up to 3 levels off at bars 3 to 5 cells thick
    /// (in place, bars of one to two cells were up to 2 levels off).
    func subsampleCount(for blob: PlacedBlob) -> Int {
        guard cellSize > 1, !blob.isEmpty else { return 1 }
        let needed = subsamplesNeeded(for: blob)
        // Cells over 16 pixels take no pixel centres: the renderer moves such a scene to
        // a finer grid (see ``resolvesRims(of:)``); a grid used directly keeps 16 sub-samples.
        guard cellSize <= WorkingGrid.finest else { return Int(min(needed, 16)) }
        if needsPixelCentres(blob) {
            let narrow = Double(min(blob.semiAxes.x, blob.semiAxes.y)) < cellSize
            return Int(narrow ? WorkingGrid.pixelCentres : WorkingGrid.pixelCentresInPlace)
        }
        return Int(max(needed, 1))
    }

    /// The sub-samples per axis `blob`'s rim needs.
    private func subsamplesNeeded(for blob: PlacedBlob) -> Double {
        (cellSize / (0.16 * max(rimWidth(of: blob), 0.01))).squareRoot().rounded(.up)
    }

    /// The width of `blob`'s feathered rim where it is thinnest, in pixels.
    private func rimWidth(of blob: PlacedBlob) -> Double { 0.1 * Double(min(blob.semiAxes.x, blob.semiAxes.y)) }

    /// Whether `blob`'s rim must be sampled at the pixel centres: when the most
    /// sub-samples a cell takes (16, or one a pixel) are too few for the midpoint rule,
    /// or when they are spaced wider than half the rim and the blur leaves what that
    /// costs visible. Sub-samples that barely resolve a ramp alias against the
    /// definition's pixel centres, and along a straight edge that adds up cell after
    /// cell; the blur divides it by about σ, so it matters where the rim width times σ
    /// is under ``aliasingLimit``: 3.3 levels for an 8-pixel bar at σ 40 pixels on 16
    /// sub-samples of 16-pixel cells, 2.4 for a 36-pixel bar at σ 18 on 5 sub-samples.
    private func needsPixelCentres(_ blob: PlacedBlob) -> Bool {
        let most = min(cellSize.rounded(.up), 16), needed = subsamplesNeeded(for: blob), rim = rimWidth(of: blob)
        return needed > most || (rim < 2 * cellSize / needed && rim * sigmaPixels < WorkingGrid.aliasingLimit)
    }

    /// The rim width times σ, in square pixels, below which a rim that sub-samples
    /// barely resolve is sampled at the pixel centres.
    static let aliasingLimit = 64.0

    /// Whether every rim of `scene` can be sampled on this grid: false when a rim needs
    /// pixel centres and cells are larger than ``finest``, so the scene needs a grid of
    /// ``finest`` cells.
    func resolvesRims(of scene: CompiledScene) -> Bool {
        guard cellSize > WorkingGrid.finest else { return true }
        return !scene.blobs.contains { !$0.isEmpty && needsPixelCentres($0) }
    }

    /// The sub-sample count that stands for a cell's pixel centres with its effect placed
    /// by its moments; more than any other count, so that it wins in a cell it shares.
    static let pixelCentres: Int32 = 1 << 10
    /// The sub-sample count that stands for a cell's pixel centres averaged in place;
    /// more than any count of sub-samples.
    static let pixelCentresInPlace: Int32 = 1 << 9

    /// Whether the sub-sample count `subsamples` stands for the pixel centres.
    @inline(__always)
    static func isPixelCentres(_ subsamples: Int32) -> Bool { subsamples >= pixelCentresInPlace }
    /// Pixel centres per axis in a cell of at most 16 pixels.
    static let maximumCentres = 17

    /// Marks each cell of one grid row within `columns`: 1 inside the blob, −1 across
    /// its rim, 0 outside; and keeps the row's per-cell rim count, last blob present
    /// and sub-sample count up to date.
    ///
    /// `d² = ((x − cx)/a)² + ((y − cy)/b)²` is a sum of one term in x and one in y, so its
    /// least and greatest values over a cell's rectangle of samples are exact and cheap:
    /// the cell is inside when the greatest is at most 0.81, outside when the least is
    /// at least 1.
    private func classifyRow(
        _ blob: PlacedBlob, index: Int, subsamples: Int32, rowSpan: CellSpan, columnSpans: UnsafeBufferPointer<CellSpan>, columns: Range<Int>,
        everyColumn: Bool, into row: RasterRow
    ) {
        let top = blob.center.y - blob.semiAxes.y, bottom = blob.center.y + blob.semiAxes.y
        let rowRange = rowSpan.sampleRange(subsamples)
        guard rowRange.upper >= top, rowRange.lower <= bottom else { return }
        let (nearY, farY) = WorkingGrid.squaredRange(rowRange.lower, rowRange.upper, center: blob.center.y, inverse: blob.inverseSemiAxes.y)
        let stride = row.blobCount
        func squared(_ column: Int) -> (near: Float, far: Float) {
            let range = columnSpans[column].sampleRange(subsamples)
            return WorkingGrid.squaredRange(range.lower, range.upper, center: blob.center.x, inverse: blob.inverseSemiAxes.x)
        }
        func mark(_ column: Int, inside: Bool) {
            row.lastPresent[column] = Int32(index)
            if inside {
                row.coverage[column * stride + index] = 1
            } else {
                row.coverage[column * stride + index] = -1
                row.rims[column] += 1
                row.subsamples[column] = max(row.subsamples[column], subsamples)
            }
        }
        if everyColumn {
            for column in columns {
                let (near, far) = squared(column)
                if near + nearY < 1 { mark(column, inside: far + farY <= 0.81) }
            }
            return
        }
        // The spans move right column by column, so the least d² falls and then rises
        // across the row: the cells the blob reaches are one run of columns around the
        // one nearest the centre: the first whose samples reach the centre, or the one before.
        let first = WorkingGrid.firstColumn(in: columns) { columnSpans[$0].sampleRange(subsamples).upper >= blob.center.x }
        var nearest = min(first, columns.upperBound - 1)
        if nearest > columns.lowerBound, squared(nearest - 1).near < squared(nearest).near { nearest -= 1 }
        guard squared(nearest).near + nearY < 1 else { return }
        let present = WorkingGrid.firstColumn(in: columns.lowerBound..<nearest) { squared($0).near + nearY < 1 }
            ..< WorkingGrid.firstColumn(in: (nearest + 1)..<columns.upperBound) { squared($0).near + nearY >= 1 }
        for column in present { mark(column, inside: squared(column).far + farY <= 0.81) }
    }

    /// The first column of `range` where `isPast` holds, or its end: `isPast` must be
    /// false and then true across the range.
    @inline(__always)
    static func firstColumn(in range: Range<Int>, where isPast: (Int) -> Bool) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if isPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The least and greatest `((p − center)·inverse)²` for `p` in `lower...upper`.
    @inline(__always)
    static func squaredRange(_ lower: Float, _ upper: Float, center: Float, inverse: Float) -> (Float, Float) {
        let a = (lower - center) * inverse, b = (upper - center) * inverse
        let far = max(a * a, b * b)
        let near = lower <= center && center <= upper ? 0 : min(a * a, b * b)
        return (near, far)
    }
}

/// One grid row's classification: per cell, each blob's coverage (0, 1, or −1 across
/// its rim), how many rims cross the cell, the last blob present and the sub-samples
/// the finest rim needs.
final class RasterRow {
    let width: Int
    let blobCount: Int
    let coverage: UnsafeMutablePointer<Float>
    let rims: UnsafeMutablePointer<Int32>
    let lastPresent: UnsafeMutablePointer<Int32>
    let subsamples: UnsafeMutablePointer<Int32>

    init(width: Int, blobCount: Int) {
        self.width = width
        self.blobCount = blobCount
        coverage = .allocate(capacity: width * blobCount)
        rims = .allocate(capacity: width)
        lastPresent = .allocate(capacity: width)
        subsamples = .allocate(capacity: width)
    }

    func reset() {
        coverage.update(repeating: 0, count: width * blobCount)
        rims.update(repeating: 0, count: width)
        lastPresent.update(repeating: -1, count: width)
        subsamples.update(repeating: 1, count: width)
    }

    deinit {
        coverage.deallocate()
        rims.deallocate()
        lastPresent.deallocate()
        subsamples.deallocate()
    }
}

/// Per-thread working memory of the rasteriser.
final class RasterScratch {
    let stack: UnsafeMutablePointer<SIMD4<Float>>
    /// The folded programs of the coverage patterns met so far.
    let patterns: PatternCache

    /// Sub-samples of one cell at most (17 pixels per axis: a span of at most 16 pixels
    /// cuts at most 17).
    static let maximumSamples = WorkingGrid.maximumCentres * WorkingGrid.maximumCentres
    /// A cell's sub-sample coordinates along each axis.
    let xs: UnsafeMutablePointer<Float>
    let ys: UnsafeMutablePointer<Float>
    /// One rim blob's `((x − cx)/a)²` at each `xs`.
    let squaredX: UnsafeMutablePointer<Float>
    /// A pixel-centre cell's pixels along each axis: the length each counts for, and
    /// where it lies, in cells from the node (see ``CellSpan/pixels(into:weights:offsets:)``).
    let columnWeights: UnsafeMutablePointer<Float>
    let rowWeights: UnsafeMutablePointer<Float>
    let columnOffsets: UnsafeMutablePointer<Float>
    let rowOffsets: UnsafeMutablePointer<Float>
    /// Varying blobs' coverage at each sub-sample: `maximumSamples` per blob.
    let sampled: UnsafeMutablePointer<Float>
    /// The accumulator stack for all sub-samples at once: `maximumSamples` per level.
    let wideStack: UnsafeMutablePointer<SIMD4<Float>>
    /// This chunk's pixel-centre cells' moments.
    var moments: [CellMoment] = []

    init(scene: SceneView) {
        stack = .allocate(capacity: scene.depth + 1)
        patterns = PatternCache(scene: scene)
        xs = .allocate(capacity: WorkingGrid.maximumCentres)
        ys = .allocate(capacity: WorkingGrid.maximumCentres)
        squaredX = .allocate(capacity: WorkingGrid.maximumCentres + 3)
        squaredX.initialize(repeating: 0, count: WorkingGrid.maximumCentres + 3)
        columnWeights = .allocate(capacity: WorkingGrid.maximumCentres)
        rowWeights = .allocate(capacity: WorkingGrid.maximumCentres)
        columnOffsets = .allocate(capacity: WorkingGrid.maximumCentres)
        rowOffsets = .allocate(capacity: WorkingGrid.maximumCentres)
        sampled = .allocate(capacity: max(scene.blobs.count, 1) * Self.maximumSamples + 3)
        wideStack = .allocate(capacity: (scene.depth + 1) * Self.maximumSamples)
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

/// A coverage pattern's program with its fixed blobs folded away and, once computed, the
/// composite's terms under it: with no rim, `none` is the composite; with one rim, `none`
/// and `full` are the composites at its coverage 0 and 1; with two, `none + full·c +
/// second·e + both·c·e` is the bilinear surface through the four corners; at pixel
/// centres, `none` is the composite with every rim blob absent. `isLinear` tells
/// whether the composite follows that chord or surface.
struct FoldedPattern {
    let program: UnsafeMutablePointer<CompiledScene.ReducedOperation>
    /// Whether `program` is folded yet (cells no rim crosses never need it).
    var isFolded = false
    var programLength = 0
    var hasTerms = false
    var isLinear = false
    var none = SIMD4<Float>.zero
    var full = SIMD4<Float>.zero
    var second = SIMD4<Float>.zero
    var both = SIMD4<Float>.zero
}

/// A direct-mapped cache of ``FoldedPattern``s keyed by the cell's coverages. An entry
/// is a pure function of its pattern, so what the cache holds never changes a result.
final class PatternCache {
    static let slotCount = 128
    /// Coverages per pattern: the scene's blobs, at least one (as ``RasterRow`` holds them).
    private let blobCount: Int
    /// Each slot's coverage pattern (`blobCount` values). An unused slot holds zeros
    /// and an empty entry, which is what a slot refilled with that pattern would hold.
    private let patterns: UnsafeMutablePointer<Float>
    private let entries: UnsafeMutablePointer<FoldedPattern>
    private let programs: UnsafeMutablePointer<CompiledScene.ReducedOperation>

    init(scene: SceneView) {
        blobCount = max(scene.blobs.count, 1)
        let capacity = scene.program.count + 1
        patterns = .allocate(capacity: Self.slotCount * blobCount)
        patterns.initialize(repeating: 0, count: Self.slotCount * blobCount)
        programs = .allocate(capacity: Self.slotCount * capacity)
        entries = .allocate(capacity: Self.slotCount)
        for slot in 0..<Self.slotCount { (entries + slot).initialize(to: FoldedPattern(program: programs + slot * capacity)) }
    }

    /// The entry for `coverage`'s pattern, emptied first if the slot held another.
    @inline(__always)
    func entry(for coverage: UnsafePointer<Float>) -> UnsafeMutablePointer<FoldedPattern> {
        var hash: UInt64 = 0
        for blob in 0..<blobCount { hash = (hash ^ UInt64(coverage[blob].bitPattern)) &* 0x9E37_79B9_7F4A_7C15 }
        let slot = Int(hash >> 57)
        let pattern = patterns + slot * blobCount, entry = entries + slot
        if memcmp(pattern, coverage, blobCount * MemoryLayout<Float>.size) != 0 {
            pattern.update(from: coverage, count: blobCount)
            entry.pointee.isFolded = false
            entry.pointee.hasTerms = false
        }
        return entry
    }

    deinit {
        patterns.deallocate()
        programs.deallocate()
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
    }
}

/// A cell's coverage pattern with its one or two rim blobs set to chosen coverages.
private struct PatternComposite {
    let scene: SceneView
    let program: UnsafePointer<CompiledScene.ReducedOperation>
    let length: Int
    let coverage: UnsafePointer<Float>
    let stack: UnsafeMutablePointer<SIMD4<Float>>
    let first: Int
    var second = -1

    /// The composite with the first rim blob at coverage `c` and the second at `e`.
    @inline(__always)
    func value(_ c: Float, _ e: Float = 0) -> SIMD4<Float> {
        let first = first, second = second, coverage = coverage
        return scene.composite(program, count: length, stack: stack) { $0 == first ? c : $0 == second ? e : coverage[$0] }
    }
}

/// The sample spans of one cell.
struct CellSamples {
    let column: CellSpan
    let row: CellSpan
}


