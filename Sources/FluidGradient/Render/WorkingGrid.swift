import Foundation

/// The reduced-resolution grid the production path composites and blurs on.
///
/// Each grid value is the average of the composite over a cell of `cellSize` pixels
/// (a real number), which is the composite convolved with a box of variance `k²/12`
/// per axis, sampled at the cell's centre. The grid is then blurred with a Gaussian of
/// `sigma` cells per axis and resampled bilinearly, which adds a variance between 0
/// and `k²/4` depending on where a pixel falls between cells. The grid σ is chosen so
/// the three together have the variance σ² of DESIGN section 5, counting the bilinear
/// part as `k²/8`, which halves its largest error.
///
/// Where the frame's edges fall inside their cells matters for transparent edges. A
/// step that falls a fraction φ into a cell is represented, once blurred, as if by an
/// extra variance `k²·(φ(1 − φ) − 1/12)`: from −k²/12 on a cell boundary to +k²/6 on a
/// cell centre, averaging the box's k²/12 over φ, which is what blob rims at random
/// positions see. The frame's edges are placed at `φ = ½ − 1/(2√3)` (a Gauss–Legendre
/// node), where that variance is exactly k²/12: the cells tile the frame in a whole
/// number of cells, centred at `(c + 1/(2√3))·k`.
///
/// With σ ≥ 3.5 cells the interpolation error of a blurred step is below
/// `k²/16 · 0.242/σ²` ≈ 0.3 of an 8-bit level. When σ is under 14 pixels the cells are
/// the pixels themselves, centred on pixel centres, and the path is the definition.
package struct WorkingGrid: Equatable {
    /// The blur's standard deviation in cells that the cell size aims for (at least this).
    package static let targetSigmaInCells = 3.5

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
        /// Extra cells each side: the blur's reach plus one for interpolation.
        package var margin: Int { radius + 1 }
        /// Cells in the composited grid, margins included.
        package var gridCount: Int { cells + 2 * margin }
        /// Blurred cells kept: from −1 to `cells`, enough to interpolate every pixel.
        package var blurredCount: Int { cells + 2 }

        init(length: Int, sigma: Double, fullResolution: Bool) {
            self.length = length
            if fullResolution {
                cellSize = 1
                offset = 0.5
                cells = length
                self.sigma = sigma
            } else {
                let spans = max(1, Int((Double(length) * WorkingGrid.targetSigmaInCells / sigma).rounded(.up)))
                let k = Double(length) / Double(spans)
                cellSize = k
                offset = 1 / (2 * 3.0.squareRoot())
                cells = spans + 1
                self.sigma = ((sigma * sigma - k * k / 12 - k * k / 8).squareRoot()) / k
            }
            radius = max(1, Int((4 * self.sigma).rounded(.up)))
        }

        /// The normalised Gaussian taps of the grid blur along this axis.
        package var kernel: [Float] {
            ReferenceRenderer.gaussianKernel(sigma: sigma, radius: radius).map(Float.init)
        }

        /// Where pixel `index` falls between blurred cells: the lower cell's index among
        /// the kept cells, and the fraction towards the next one.
        func interpolation() -> (cell: [Int32], fraction: [Float]) {
            var cells = [Int32](repeating: 0, count: length)
            var fractions = [Float](repeating: 0, count: length)
            for index in 0..<length {
                let u = (Double(index) + 0.5) / cellSize - offset
                let cell = u.rounded(.down)
                cells[index] = Int32(cell) + 1
                fractions[index] = Float(u - cell)
            }
            return (cells, fractions)
        }
    }

    package let horizontal: Axis
    package let vertical: Axis

    package init(spec: FrameSpec) {
        let sigma = spec.sigma
        // Below 4-pixel cells the saving is small, and a blob's rim can be thinner than a
        // pixel, so the definition's own pixel-centre sampling matters: stay exact.
        let fullResolution = sigma / WorkingGrid.targetSigmaInCells < 4
        horizontal = Axis(length: spec.width, sigma: sigma, fullResolution: fullResolution)
        vertical = Axis(length: spec.height, sigma: sigma, fullResolution: fullResolution)
    }

    /// The larger cell side in pixels (1 means full resolution).
    package var cellSize: Double { max(horizontal.cellSize, vertical.cellSize) }
    package var gridWidth: Int { horizontal.gridCount }
    package var gridHeight: Int { vertical.gridCount }
    package var blurredWidth: Int { horizontal.blurredCount }
    package var blurredHeight: Int { vertical.blurredCount }
}

/// How the samples of one grid cell lie along one axis.
struct CellSpan {
    /// The interval the samples spread over, before clamping.
    var lower: Float
    var upper: Float
    /// The interval the (clamped) samples fall in: what bounds their distance.
    var sampleLower: Float
    var sampleUpper: Float
    /// Share of the cell inside the frame with transparent edges (the samples cover
    /// that share only); 1 otherwise.
    var inside: Float
    /// Clamp samples into `clampLower...clampUpper` (clamp edges).
    var clamps: Bool
    var clampLower: Float
    var clampUpper: Float

    /// The spans of the grid's cells along one axis.
    static func spans(_ axis: WorkingGrid.Axis, edges: EdgeMode) -> [CellSpan] {
        let k = axis.cellSize, size = Float(axis.length)
        return (0..<axis.gridCount).map { gridIndex in
            let centre = (Double(gridIndex - axis.margin) + axis.offset) * k
            let lower = Float(centre - k / 2), upper = Float(centre + k / 2)
            var span = CellSpan(
                lower: lower, upper: upper, sampleLower: lower, sampleUpper: upper,
                inside: 1, clamps: false, clampLower: 0.5, clampUpper: size - 0.5)
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
                span.sampleLower = min(max(lower, 0.5), size - 0.5)
                span.sampleUpper = min(max(upper, 0.5), size - 0.5)
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
    /// cell holds the average of the composite over the cell (0 outside the frame with
    /// transparent edges; with clamp edges, the samples are clamped into the frame).
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
        _ scene: CompiledScene, columnSpans: [CellSpan], rowSpans: [CellSpan],
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
        let needed = (cellSize / (0.08 * max(rim, 0.01))).squareRoot().rounded(.up)
        return Int(min(max(needed, 1), min(cellSize.rounded(.up), 16)))
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
