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
