/// The hot case of the output pass — an opaque solid background into 8-bit RGBA or
/// yuv420p on a reduced grid.
///
/// The background is composited per cell first (compositing onto a constant is
/// affine, so it commutes with the interpolation), and each thread keeps the two grid
/// rows around its current output row:
///
/// - RGBA keeps them as cells. Each output row interpolates the cells to its height
///   (a few hundred of them), then each pixel between its two cells, plus its dither
///   threshold, floored and packed four pixels at a time.
/// - yuv420p resamples each grid row to full width once, as planar Y, Cb and Cr, run
///   by run of pixels between the same two cells; an output sample is then
///   `A + g·(B − A)` between the two expanded rows, sixteen luma samples at a time.
struct ExpandedRows {
    let width: Int
    let format: PixelFormat
    /// The Y′CbCr matrix of yuv420p.
    let weights: YUV.Weights
    /// Where each pixel falls between blurred cells, along a row.
    let columnCell: [Int32]
    let columnFraction: [Float]
    /// Where each run of pixels between the same two cells ends (see ``runEnds(of:)``).
    let columnRunEnds: [Int32]
    /// `columnFraction` four times over, once per RGBA lane.
    let columnFractionLanes: [Float]
    /// The way back to encoded values from a mixing space other than sRGB, taken at the
    /// nodes before they are spread: the frame is opaque, and smooth between them.
    var decoder: MixingDecoder? = nil

    /// Per-thread memory: the two grid rows around the current output row (cells,
    /// `SIMD4<Float>`, for RGBA; expanded planar rows, `Float`, for yuv420p), which grid
    /// rows they are, and scratch.
    final class Window {
        var rows: [Int] = [-1, -1]
        private(set) var buffers: [UnsafeMutableRawPointer]
        /// Two rows of cells: an RGBA row's interpolated cells and their differences, or
        /// the cells a yuv420p row is expanded from.
        let scratch: UnsafeMutablePointer<SIMD4<Float>>
        let chroma: UnsafeMutablePointer<Float>

        init(width: Int, cellCount: Int, format: PixelFormat) {
            let alignment = MemoryLayout<SIMD4<Float>>.alignment
            buffers = (0..<2).map { _ in
                if format == .rgba {
                    let cells = UnsafeMutableRawPointer.allocate(byteCount: cellCount * 16, alignment: alignment)
                    cells.bindMemory(to: SIMD4<Float>.self, capacity: cellCount)
                    return cells
                }
                let planes = UnsafeMutableRawPointer.allocate(byteCount: 3 * width * 4, alignment: alignment)
                planes.bindMemory(to: Float.self, capacity: 3 * width)
                return planes
            }
            scratch = .allocate(capacity: 2 * cellCount)
            chroma = .allocate(capacity: 2 * width)
        }

        func buffersSwap() { buffers.swapAt(0, 1) }

        deinit {
            for buffer in buffers { buffer.deallocate() }
            scratch.deallocate()
            chroma.deallocate()
        }
    }

    /// Grid row `row` in levels less ½ (see ``floor(_:)``), one value per cell:
    /// RGBA×255, or Y, Cb, Cr (limited range, `weights`' matrix).
    func cellLevels(
        row: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, rowWidth: Int, background: SIMD4<Float>,
        into cells: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let source = blurred.baseAddress! + row * rowWidth
        let low = SIMD4<Float>(repeating: -0.5), high = SIMD4<Float>(repeating: 254.5)
        if let decoder {
            for cell in 0..<rowWidth { cells[cell] = source[cell] + background * (1 - source[cell].w) }
            decoder.decode(cells, count: rowWidth, unpremultiply: false)
        }
        for cell in 0..<rowWidth {
            let p = source[cell]
            let color = decoder == nil ? p + background * (1 - p.w) : cells[cell]
            let levels: SIMD4<Float>
            if format == .rgba {
                levels = color * 255
            } else {
                let chroma = YUV.chroma(color, weights)
                levels = SIMD4(YUV.luma(color, weights), chroma.cb, chroma.cr, 0)
            }
            cells[cell] = pointwiseMin(pointwiseMax(levels - 0.5, low), high)
        }
    }

    /// Fills `out` with grid row `row` at full width, in levels less ½ (see
    /// ``floor(_:)``): planar Y, Cb, Cr.
    func expand(
        row: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, rowWidth: Int, background: SIMD4<Float>,
        cells: UnsafeMutablePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<Float>
    ) {
        cellLevels(row: row, blurred: blurred, rowWidth: rowWidth, background: background, into: cells)
        columnCell.withUnsafeBufferPointer { columnCell in
            columnFraction.withUnsafeBufferPointer { fraction in
                columnRunEnds.withUnsafeBufferPointer { runEnds in
                    var x = 0
                    for end in runEnds {
                        let cell = Int(columnCell[x]), end = Int(end)
                        let a = cells[cell], delta = cells[cell + 1] - a
                        while x < end {
                            let v = a + fraction[x] * delta
                            out[x] = v.x
                            out[width + x] = v.y
                            out[2 * width + x] = v.z
                            x += 1
                        }
                    }
                }
            }
        }
    }

    /// The end of each run of equal cells in `columnCell` (which never decreases).
    static func runEnds(of columnCell: [Int32]) -> [Int32] {
        var ends: [Int32] = []
        for x in columnCell.indices.dropFirst() where columnCell[x] != columnCell[x - 1] { ends.append(Int32(x)) }
        if !columnCell.isEmpty { ends.append(Int32(columnCell.count)) }
        return ends
    }

    /// Makes `window` hold grid rows `upper` and `upper + 1`, preparing what is missing.
    func slide(
        _ window: Window, to upper: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, rowWidth: Int,
        background: SIMD4<Float>
    ) -> (UnsafeMutableRawPointer, UnsafeMutableRawPointer) {
        for (slot, row) in [upper, upper + 1].enumerated() {
            if window.rows[slot] == row { continue }
            if window.rows[1 - slot] == row, slot == 0 {
                // Moving down one grid row: the lower row becomes the upper.
                window.rows.swapAt(0, 1)
                window.buffersSwap()
                continue
            }
            let buffer = window.buffers[slot]
            if format == .rgba {
                cellLevels(
                    row: row, blurred: blurred, rowWidth: rowWidth, background: background,
                    into: buffer.assumingMemoryBound(to: SIMD4<Float>.self))
            } else {
                expand(
                    row: row, blurred: blurred, rowWidth: rowWidth, background: background, cells: window.scratch,
                    into: buffer.assumingMemoryBound(to: Float.self))
            }
            window.rows[slot] = row
        }
        return (window.buffers[0], window.buffers[1])
    }

    /// `⌊v + ½⌋` for −½ ≤ v < 2²², vectorised: the rows hold levels less ½, so this is
    /// the floor of the level plus its threshold. `v + 1.5·2²³` lies in [2²³, 2²⁴),
    /// where floats are the integers, so the addition rounds `v` to the nearest integer
    /// and the low mantissa bits hold it (exact integers, which the dither almost never
    /// produces, round to even).
    ///
    /// The cells' values lie in −½...254.5 and are interpolated as `A + g·(B − A)` with
    /// 0 ≤ g < 1 (once between expanded rows, or twice for RGBA: between rows, then
    /// between cells), which never goes below the smaller end and passes the larger by
    /// a few ulps at most; the threshold is at least 1/8192 and at most 1 − 1/8192. So
    /// the result is a level in 0...255 with no clamp.
    @inline(__always)
    static func floor(_ v: SIMD16<Float>) -> SIMD16<Int32> {
        unsafeBitCast(v + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000
    }

    /// `⌊v + ½⌋` clamped to 0...255, one value at a time (the rows' tails).
    @inline(__always)
    static func level(_ v: Float) -> UInt8 { UInt8(min(max(v + 0.5, 0), 255)) }

    /// The low byte of each lane. (The standard library's `init(truncatingIfNeeded:)`
    /// does the same but is not always inlined into these loops, and costs a call per vector.)
    @inline(__always)
    static func lowBytes(_ v: SIMD16<Int32>) -> SIMD16<UInt8> {
        var bytes = SIMD16<UInt8>()
        for lane in 0..<16 { bytes[lane] = UInt8(truncatingIfNeeded: v[lane]) }
        return bytes
    }

    /// One output row of dithered RGBA, alpha 255, from the two grid rows around it
    /// (`upper` and `lower`, cell levels): the cells are interpolated to the row's
    /// height first, `A + g·(B − A)`, then each pixel between its two cells, `a + f·d`,
    /// plus its threshold, floored. Four pixels between the same two cells share `a`
    /// and `d`; a group that straddles a cell boundary looks each pixel's cell up.
    @inline(__always)
    func packRGBA(
        upper: UnsafePointer<SIMD4<Float>>, lower: UnsafePointer<SIMD4<Float>>, fraction g: Float, rowWidth: Int,
        scratch: UnsafeMutablePointer<SIMD4<Float>>, thresholds: UnsafePointer<Float>, phase: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let cells = scratch, deltas = scratch + rowWidth
        OutputPass.interpolate(upper, lower, fraction: g, count: rowWidth, into: cells)
        OutputPass.differences(of: cells, count: rowWidth, into: deltas)
        let opaque = SIMD16<UInt8>(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
        let t = UnsafeRawPointer(thresholds), target = UnsafeMutableRawPointer(out)
        columnCell.withUnsafeBufferPointer { columnCell in
            columnFractionLanes.withUnsafeBufferPointer { lanes in
                let fractions = UnsafeRawPointer(lanes.baseAddress!)
                @inline(__always) func pixel(_ x: Int) -> SIMD4<Float> {
                    let cell = Int(columnCell[x])
                    return cells[cell] + fractions.loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self)
                        * deltas[cell]
                }
                var x = 0
                while x + 4 <= width {
                    let cell = Int(columnCell[x])
                    let v: SIMD16<Float>
                    if Int(columnCell[x + 3]) == cell {
                        let a = cells[cell], d = deltas[cell]
                        let a16 = SIMD16(
                            lowHalf: SIMD8(lowHalf: a, highHalf: a), highHalf: SIMD8(lowHalf: a, highHalf: a))
                        let d16 = SIMD16(
                            lowHalf: SIMD8(lowHalf: d, highHalf: d), highHalf: SIMD8(lowHalf: d, highHalf: d))
                        v = a16 + fractions.loadUnaligned(fromByteOffset: x * 16, as: SIMD16<Float>.self) * d16
                    } else {
                        v = SIMD16(
                            lowHalf: SIMD8(lowHalf: pixel(x), highHalf: pixel(x + 1)),
                            highHalf: SIMD8(lowHalf: pixel(x + 2), highHalf: pixel(x + 3)))
                    }
                    let threshold = t.loadUnaligned(fromByteOffset: ((x + phase) & 63) * 16, as: SIMD16<Float>.self)
                    let levels = ExpandedRows.floor(v + threshold)
                    target.storeBytes(
                        of: ExpandedRows.lowBytes(levels) | opaque, toByteOffset: x * 4, as: SIMD16<UInt8>.self)
                    x += 4
                }
                while x < width {
                    let v = pixel(x)
                    for lane in 0..<3 {
                        out[4 * x + lane] = ExpandedRows.level(v[lane] + thresholds[((x + phase) & 63) * 4 + lane])
                    }
                    out[4 * x + 3] = 255
                    x += 1
                }
            }
        }
    }

    /// One row of a single-component plane: `A + g·(B − A) + t`, floored, sixteen at a time.
    @inline(__always)
    static func packPlane(
        upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, fraction g: Float, count: Int,
        thresholds: UnsafePointer<Float>, phase: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let a = UnsafeRawPointer(upper), b = UnsafeRawPointer(lower), t = UnsafeRawPointer(thresholds)
        var x = 0
        while x + 16 <= count {
            let top = a.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<Float>.self)
            let bottom = b.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<Float>.self)
            let threshold = t.loadUnaligned(fromByteOffset: ((x + phase) & 63) * 4, as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(out + x).storeBytes(
                of: lowBytes(floor(top + g * (bottom - top) + threshold)), as: SIMD16<UInt8>.self)
            x += 16
        }
        while x < count {
            out[x] = level(upper[x] + g * (lower[x] - upper[x]) + thresholds[(x + phase) & 63])
            x += 1
        }
    }
}
