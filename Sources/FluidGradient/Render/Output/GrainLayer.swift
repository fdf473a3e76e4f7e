import Foundation

/// The fast path's grain (DESIGN section 12): each phase's tile as the overlay's slope
/// `g = 2N − 1` per channel, and the cells of each column, made once per frame size.
///
/// The overlay of the layer `N` on a colour `C` is `C + g·min(C, 1 − C)` (for `C ≤ ½`,
/// `2NC = C + (2N − 1)C`; above, `1 − 2(1 − N)(1 − C) = C + (2N − 1)(1 − C)`): one
/// subtraction, one minimum and one multiply-add a channel, with no table of the blend.
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

    init(field: GrainField, width: Int) {
        self.field = field
        self.width = width
        let cells = (0..<width).map { Int32(field.cell($0)) }
        columnCells = cells
        tileIsRow = cells.indices.allSatisfy { Int(cells[$0]) == $0 % GrainField.tileCells }
        tiles = Array(repeating: nil, count: field.phases)
    }

    deinit {
        for tile in tiles { tile?.deallocate() }
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

    /// The slopes of output row `row`, for one thread: a row of the tile when `c = 1`, else
    /// the row gathered into `scratch` (`width` slopes), kept while the rows share a cell row.
    struct Rows {
        let layer: GrainLayer
        let tile: UnsafePointer<SIMD4<Float>>
        let scratch: UnsafeMutablePointer<SIMD4<Float>>?
        private var gatheredCellRow = -1

        init(layer: GrainLayer, tile: UnsafePointer<SIMD4<Float>>) {
            self.layer = layer
            self.tile = tile
            scratch = layer.tileIsRow ? nil : .allocate(capacity: layer.width)
        }

        func deallocate() { scratch?.deallocate() }

        @inline(__always)
        mutating func row(_ row: Int) -> GrainRow {
            let cellRow = layer.field.cell(row)
            let source = tile + cellRow * GrainField.tileCells
            guard let scratch else { return GrainRow(slopes: source, mask: GrainField.tileCells - 1) }
            if cellRow != gatheredCellRow {
                layer.columnCells.withUnsafeBufferPointer { cells in
                    for x in 0..<layer.width { scratch[x] = source[Int(cells[x])] }
                }
                gatheredCellRow = cellRow
            }
            return GrainRow(slopes: UnsafePointer(scratch), mask: -1)
        }
    }
}

/// What the output pass does to a row's values before they are quantised: grain
/// (``GrainRow``) or nothing (``NoGrain``). The packing loops are generic over it, so
/// with no grain they compile to what they were without it.
protocol GrainLanes {
    /// Four pixels from `x` (a multiple of 4), RGBA each, in levels less ½ (`255·C − ½`).
    func levels(_ v: SIMD16<Float>, x: Int) -> SIMD16<Float>
    /// Pixel `x`, RGBA, in levels less ½.
    func levels(_ v: SIMD4<Float>, x: Int) -> SIMD4<Float>
}

/// No grain: values pass unchanged.
struct NoGrain: GrainLanes {
    @inline(__always) func levels(_ v: SIMD16<Float>, x: Int) -> SIMD16<Float> { v }
    @inline(__always) func levels(_ v: SIMD4<Float>, x: Int) -> SIMD4<Float> { v }
}

/// One output row's grain slopes: pixel `x` takes `slopes[x & mask]`.
struct GrainRow: GrainLanes {
    let slopes: UnsafePointer<SIMD4<Float>>
    let mask: Int

    /// `v + g·min(v + ½, 254.5 − v)`: the overlay `L + g·min(L, 255 − L)` on the level
    /// `L = v + ½`, kept less ½.
    @inline(__always)
    func levels(_ v: SIMD16<Float>, x: Int) -> SIMD16<Float> {
        let g = UnsafeRawPointer(slopes).loadUnaligned(fromByteOffset: (x & mask) * 16, as: SIMD16<Float>.self)
        let m = pointwiseMin(v + 0.5, 254.5 - v)
        return v + g * m
    }

    @inline(__always)
    func levels(_ v: SIMD4<Float>, x: Int) -> SIMD4<Float> {
        v + slopes[x & mask] * pointwiseMin(v + 0.5, 254.5 - v)
    }

    /// The overlay on a row of colours in 0...1: straight, or premultiplied (`premultiplied`),
    /// whose colour is divided by alpha first and multiplied back after; alpha unchanged.
    @inline(__always)
    func apply(to colors: UnsafeMutablePointer<SIMD4<Float>>, count: Int, premultiplied: Bool) {
        for x in 0..<count {
            let c = colors[x], g = slopes[x & mask]
            if premultiplied {
                guard c.w > 0 else { continue }
                let straight = c / c.w
                var out = (straight + g * pointwiseMin(straight, 1 - straight)) * c.w
                out.w = c.w
                colors[x] = out
            } else {
                colors[x] = c + g * pointwiseMin(c, 1 - c)
            }
        }
    }
}
