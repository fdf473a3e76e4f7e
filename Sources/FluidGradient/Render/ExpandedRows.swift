/// The hot case of the output pass — an opaque solid background into 8-bit RGBA or
/// yuv420p on a reduced grid — at a cost per pixel that does not depend on σ.
///
/// Each blurred grid row is resampled to full width once (the background composited
/// per cell first: compositing onto a constant is affine, so it commutes with the
/// interpolation), run by run of pixels between the same two cells. A thread keeps the two grid rows around its current output row, so
/// an output pixel is `A + g·(B − A)`, plus its dither threshold, floored and packed,
/// four RGBA pixels or sixteen luma samples at a time.
struct ExpandedRows {
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Where each pixel falls between blurred cells, along a row.
    let columnCell: [Int32]
    let columnFraction: [Float]
    /// Where each run of pixels between the same two cells ends (see ``runEnds(of:)``).
    let columnRunEnds: [Int32]

    /// Per-thread memory: the two expanded grid rows and the grid rows they hold.
    final class Window {
        var rows: [Int] = [-1, -1]
        private(set) var buffers: [UnsafeMutablePointer<Float>]
        let cells: UnsafeMutablePointer<SIMD4<Float>>
        let chroma: UnsafeMutablePointer<Float>

        init(width: Int, cellCount: Int, planes: Int) {
            buffers = (0..<2).map { _ in .allocate(capacity: width * planes + 16) }
            cells = .allocate(capacity: cellCount)
            chroma = .allocate(capacity: 2 * width + 16)
        }

        func buffersSwap() { buffers.swapAt(0, 1) }

        deinit {
            buffers.forEach { $0.deallocate() }
            cells.deallocate()
            chroma.deallocate()
        }
    }

    /// Components per pixel of an expanded row: RGBA (interleaved) or Y, Cb, Cr (planar).
    var planeCount: Int { format == .rgba ? 4 : 3 }

    /// Fills `out` with grid row `row` at full width, in levels less ½ (see
    /// ``floor(_:)``): interleaved RGBA×255, or planar Y, Cb, Cr (BT.709, limited range).
    func expand(
        row: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, rowWidth: Int, background: SIMD4<Float>,
        cells: UnsafeMutablePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<Float>
    ) {
        let source = blurred.baseAddress! + row * rowWidth
        let low = SIMD4<Float>(repeating: -0.5), high = SIMD4<Float>(repeating: 254.5)
        for cell in 0..<rowWidth {
            let p = source[cell]
            let color = p + background * (1 - p.w)
            let levels: SIMD4<Float>
            if format == .rgba {
                levels = color * 255
            } else {
                let chroma = YUV.chroma(color)
                levels = SIMD4(YUV.luma(color), chroma.cb, chroma.cr, 0)
            }
            cells[cell] = pointwiseMin(pointwiseMax(levels - 0.5, low), high)
        }
        columnCell.withUnsafeBufferPointer { columnCell in
            columnFraction.withUnsafeBufferPointer { fraction in
                columnRunEnds.withUnsafeBufferPointer { runEnds in
                    let pixels = UnsafeMutableRawPointer(out).assumingMemoryBound(to: SIMD4<Float>.self)
                    var x = 0
                    for end in runEnds {
                        let cell = Int(columnCell[x]), end = Int(end)
                        let a = cells[cell], delta = cells[cell + 1] - a
                        if format == .rgba {
                            while x < end {
                                pixels[x] = a + fraction[x] * delta
                                x += 1
                            }
                        } else {
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
    }

    /// The end of each run of equal cells in `columnCell` (which never decreases).
    static func runEnds(of columnCell: [Int32]) -> [Int32] {
        var ends: [Int32] = []
        for x in columnCell.indices.dropFirst() where columnCell[x] != columnCell[x - 1] { ends.append(Int32(x)) }
        if !columnCell.isEmpty { ends.append(Int32(columnCell.count)) }
        return ends
    }

    /// Makes `window` hold grid rows `upper` and `upper + 1`, expanding what is missing.
    func slide(
        _ window: Window, to upper: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, rowWidth: Int,
        background: SIMD4<Float>
    ) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
        for (slot, row) in [upper, upper + 1].enumerated() {
            if window.rows[slot] == row { continue }
            if window.rows[1 - slot] == row, slot == 0 {
                // Moving down one grid row: the lower row becomes the upper.
                window.rows.swapAt(0, 1)
                window.buffersSwap()
                continue
            }
            expand(row: row, blurred: blurred, rowWidth: rowWidth, background: background, cells: window.cells, into: window.buffers[slot])
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
    /// The rows' values lie in −½...254.5 and are interpolated as `A + g·(B − A)` with
    /// 0 ≤ g < 1, which never goes below the smaller end and passes the larger by a few
    /// ulps at most; the threshold is at least 1/8192 and at most 1 − 1/8192. So the
    /// result is a level in 0...255 with no clamp.
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

    /// One output row of dithered RGBA, alpha 255: `A + g·(B − A) + t`, floored.
    @inline(__always)
    func packRGBA(
        upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, fraction g: Float, thresholds: UnsafePointer<Float>,
        phase: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let opaque = SIMD16<UInt8>(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
        let a = UnsafeRawPointer(upper), b = UnsafeRawPointer(lower), t = UnsafeRawPointer(thresholds)
        let target = UnsafeMutableRawPointer(out)
        var x = 0
        while x + 4 <= width {
            let top = a.loadUnaligned(fromByteOffset: x * 16, as: SIMD16<Float>.self)
            let bottom = b.loadUnaligned(fromByteOffset: x * 16, as: SIMD16<Float>.self)
            let threshold = t.loadUnaligned(fromByteOffset: ((x + phase) & 63) * 16, as: SIMD16<Float>.self)
            let levels = ExpandedRows.floor(top + g * (bottom - top) + threshold)
            target.storeBytes(of: ExpandedRows.lowBytes(levels) | opaque, toByteOffset: x * 4, as: SIMD16<UInt8>.self)
            x += 4
        }
        while x < width {
            for lane in 0..<3 {
                let v = upper[4 * x + lane] + g * (lower[4 * x + lane] - upper[4 * x + lane]) + thresholds[((x + phase) & 63) * 4 + lane]
                out[4 * x + lane] = ExpandedRows.level(v)
            }
            out[4 * x + 3] = 255
            x += 1
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
