import Foundation

/// A pixel-centre cell's effect (the composite less the cell without its varying
/// blobs) by its moments about the cell's node, per axis, in cells, as a share of
/// the cell: where the effect lies (`along`) and the spread the grid must add for it
/// (`spread`).
///
/// The grid's blur falls short of σ² by a box's `k²/12`, which averaging over cells
/// supplies for content as wide as its neighbourhood of cells. An effect narrower
/// than that stands in the grid as one value plus a dipole, which spreads it by
/// nothing, so it would come out blurred `k²/12` too little; the spread carries its
/// own second moment about the node plus that `1/12` (in cells).
struct CellMoment {
    /// The cell's index in the composited grid.
    var index: Int
    var alongX = SIMD4<Float>.zero
    var alongY = SIMD4<Float>.zero
    var spreadX = SIMD4<Float>.zero
    var spreadY = SIMD4<Float>.zero

    init(index: Int) { self.index = index }

    /// These sums over the cell's pixels as shares of the cell, with the box's
    /// second moment, 1/12 of the effect, added to the spreads.
    ///
    /// - Parameters:
    ///   - effect: The summed effect, each pixel weighted by its share of the cell.
    ///   - area: The cell's area in the pixel weights' units.
    /// - Returns: The moments per unit of cell area.
    func normalized(effect: SIMD4<Float>, area: Float) -> CellMoment {
        var moment = CellMoment(index: index)
        moment.alongX = alongX / area
        moment.alongY = alongY / area
        moment.spreadX = (spreadX + effect / 12) / area
        moment.spreadY = (spreadY + effect / 12) / area
        return moment
    }
}

/// The pixel-centre cells' moments from every chunk of rows.
final class CellMoments: @unchecked Sendable {
    private let lock = NSLock()
    private var moments: [CellMoment] = []

    /// Adds one chunk's cells; safe from several threads at once.
    func add(_ chunk: [CellMoment]) {
        guard !chunk.isEmpty else { return }
        lock.lock()
        moments += chunk
        lock.unlock()
    }

    /// In grid order; once every chunk has added its own.
    func sorted() -> [CellMoment] {
        moments.sorted { $0.index < $1.index }
    }
}

extension WorkingGrid {
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
    ///
    /// - Parameters:
    ///   - moments: Every pixel-centre cell's moments, in grid order.
    ///   - columnSpans: The spans of the grid's columns.
    ///   - rowSpans: The spans of its rows.
    ///   - grid: The composited grid (`gridWidth × gridHeight`).
    func depositMoments(
        _ moments: [CellMoment], columnSpans: UnsafeBufferPointer<CellSpan>,
        rowSpans: UnsafeBufferPointer<CellSpan>, into grid: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        let width = gridWidth, height = gridHeight
        assert(grid.count == width * height, "a grid of another size")
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
}
