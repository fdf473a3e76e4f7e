import CVectorMath
import Foundation

/// The fast path's grain (DESIGN section 12): each phase's tile as the overlay's slope
/// `g = 2N − 1` per channel, and the cells of each column, made once per frame size.
///
/// The overlay of the layer `N` on a colour `C` is `C + g·min(C, 1 − C)` (for `C ≤ ½`,
/// `2NC = C + (2N − 1)C`; above, `1 − 2(1 − N)(1 − C) = C + (2N − 1)(1 − C)`): a
/// subtraction, a minimum, a multiply and an add a channel, with no table of the blend.
/// The alpha lane's `g` is 0, which leaves alpha as it is.
final class GrainLayer {
    let field: GrainField
    /// Each pixel column's cell, 0..<256.
    let columnCells: [Int32]
    /// Whether pixel column `x` lies in cell `x mod 256` (`c = 1`), so a row of the tile
    /// serves as the row of the frame.
    let tileIsRow: Bool
    private let width: Int
    private var tiles: [UnsafeMutablePointer<SIMD4<Float>>?]
    /// ``Dither/paddedThresholds`` less ½, then a row of zeros (½ less ½: no dither): the
    /// grain kernel's thresholds, since it works on levels rather than levels less ½.
    private let thresholdsLessHalf: UnsafeMutablePointer<SIMD4<Float>>

    init(field: GrainField, width: Int) {
        self.field = field
        self.width = width
        let cells = (0..<width).map { Int32(field.cell($0)) }
        columnCells = cells
        tileIsRow = cells.indices.allSatisfy { Int(cells[$0]) == $0 % GrainField.tileCells }
        tiles = Array(repeating: nil, count: field.phases)
        let padded = Dither.paddedThresholds
        thresholdsLessHalf = .allocate(capacity: padded.count + 80)
        for index in padded.indices { thresholdsLessHalf[index] = padded[index] - 0.5 }
        (thresholdsLessHalf + padded.count).initialize(repeating: .zero, count: 80)
    }

    deinit {
        for tile in tiles { tile?.deallocate() }
        thresholdsLessHalf.deallocate()
    }

    /// The slopes of phase `phase`'s tile, `tile[y·256 + x]`, made when first asked for.
    /// Not thread-safe: ask before the rows are split over threads.
    func tile(phase: Int) -> UnsafePointer<SIMD4<Float>> {
        if let tile = tiles[phase] { return UnsafePointer(tile) }
        let side = GrainField.tileCells
        let tile = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: side * side)
        let levels = field.tile(phase: phase)
        for cell in 0..<(side * side) {
            var slope = SIMD4<Float>.zero
            for lane in 0..<3 { slope[lane] = Float(2 * Int(levels[3 * cell + lane]) - 255) / 255 }
            tile[cell] = slope
        }
        tiles[phase] = tile
        return UnsafePointer(tile)
    }

    /// One frame's grain rows, for one thread: the slopes of each output row (a row of the
    /// tile when `c = 1`, else the row gathered into `scratch`, kept while the rows share a
    /// cell row) and its dither thresholds less ½.
    struct Rows {
        let layer: GrainLayer
        let tile: UnsafePointer<SIMD4<Float>>
        /// The frame's dither: whether it dithers, and the tile's row offset.
        let dither: Bool
        let offsetY: Int
        let scratch: UnsafeMutablePointer<SIMD4<Float>>?
        private var gatheredCellRow = -1

        init(layer: GrainLayer, tile: UnsafePointer<SIMD4<Float>>, dither: Bool, offsetY: Int) {
            self.layer = layer
            self.tile = tile
            self.dither = dither
            self.offsetY = offsetY
            scratch = layer.tileIsRow ? nil : .allocate(capacity: layer.width)
        }

        func deallocate() { scratch?.deallocate() }

        @inline(__always)
        mutating func row(_ row: Int) -> GrainRow {
            let cellRow = layer.field.cell(row)
            let source = tile + cellRow * GrainField.tileCells
            let thresholdRow = dither ? ((row + offsetY) & 63) * 80 : Dither.paddedThresholds.count
            let thresholds = UnsafeRawPointer(layer.thresholdsLessHalf + thresholdRow).assumingMemoryBound(
                to: Float.self)
            guard let scratch else {
                return GrainRow(slopes: source, mask: GrainField.tileCells - 1, thresholdsLessHalf: thresholds)
            }
            if cellRow != gatheredCellRow {
                layer.columnCells.withUnsafeBufferPointer { cells in
                    for x in 0..<layer.width { scratch[x] = source[Int(cells[x])] }
                }
                gatheredCellRow = cellRow
            }
            return GrainRow(slopes: UnsafePointer(scratch), mask: -1, thresholdsLessHalf: thresholds)
        }
    }
}

/// One output row's grain: pixel `x` takes the slopes `slopes[x & mask]`; the expanded
/// RGBA rows also take the row's dither thresholds less ½.
struct GrainRow {
    let slopes: UnsafePointer<SIMD4<Float>>
    let mask: Int
    let thresholdsLessHalf: UnsafePointer<Float>

    /// The overlay on a row of colours in 0...1: straight, or premultiplied (`premultiplied`),
    /// whose colour is divided by alpha first and multiplied back after; alpha unchanged.
    @inline(__always)
    func apply(to colors: UnsafeMutablePointer<SIMD4<Float>>, count: Int, premultiplied: Bool) {
        for x in 0..<count {
            let c = colors[x], g = slopes[x & mask]
            if premultiplied {
                guard c.w > 0 else { continue }
                let straight = c / c.w
                var out = (straight + g * lesser(straight, 1 - straight)) * c.w
                out.w = c.w
                colors[x] = out
            } else {
                colors[x] = c + g * lesser(c, 1 - c)
            }
        }
    }

    /// `a < b ? a : b` in each lane (`pointwiseMin` also orders NaNs, at a cost).
    @inline(__always)
    private func lesser(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }
}

extension ExpandedRows {
    /// ``packRGBA(upper:lower:fraction:rowWidth:scratch:thresholds:phase:into:)`` with grain:
    /// the cells interpolated to the row's height here, then each pixel by
    /// ``fg_pack_rgba_grain`` (CVectorMath), whose overlay is five instructions a vector.
    @inline(__always)
    func packRGBA(
        upper: UnsafePointer<SIMD4<Float>>, lower: UnsafePointer<SIMD4<Float>>, fraction g: Float, rowWidth: Int,
        scratch: UnsafeMutablePointer<SIMD4<Float>>, phase: Int, fractionStep: Float, grain: GrainRow,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let cells = scratch, deltas = scratch + rowWidth
        OutputPass.interpolate(upper, lower, fraction: g, count: rowWidth, into: cells)
        OutputPass.differences(of: cells, count: rowWidth, into: deltas)
        assert(columnCell.count == width && columnFractionLanes.count == 4 * width, "a row of another width")
        func floats(_ pointer: UnsafePointer<SIMD4<Float>>) -> UnsafePointer<Float> {
            UnsafeRawPointer(pointer).assumingMemoryBound(to: Float.self)
        }
        columnCell.withUnsafeBufferPointer { columnCell in
            columnFractionLanes.withUnsafeBufferPointer { lanes in
                fg_pack_rgba_grain(
                    floats(cells), floats(deltas), columnCell.baseAddress!, lanes.baseAddress!, fractionStep,
                    grain.thresholdsLessHalf, phase, floats(grain.slopes), grain.mask, width, out)
            }
        }
    }
}
