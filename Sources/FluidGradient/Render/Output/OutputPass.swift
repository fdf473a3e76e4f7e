/// The fused full-resolution pass: resample the blurred grid, composite onto the
/// background, lay the grain over it, dither, quantise and pack, row by row, split over
/// threads by rows.
struct OutputPass {
    let spec: FrameSpec
    let grid: WorkingGrid
    let columnCell: [Int32]
    let columnFraction: [Float]
    /// Where each run of pixels between the same two refined nodes ends, along a row.
    let columnRunEnds: [Int32]
    /// `columnFraction` four times over, once per RGBA lane.
    let columnFractionLanes: [Float]
    let rowCell: [Int32]
    let rowFraction: [Float]
    let background: BackgroundSampler
    /// The way back to encoded values from a mixing space other than sRGB.
    let decoder: MixingDecoder?
    /// The grain, when the frame has some.
    let grain: GrainLayer?

    init(spec: FrameSpec, grid: WorkingGrid) {
        self.spec = spec
        self.grid = grid
        (columnCell, columnFraction) = grid.horizontal.interpolation()
        columnRunEnds = ExpandedRows.runEnds(of: columnCell)
        columnFractionLanes = grid.horizontal.cellSize > 1 ? columnFraction.flatMap { [$0, $0, $0, $0] } : []
        (rowCell, rowFraction) = grid.vertical.interpolation()
        // The resampling reads each pixel's node and the next one.
        assert(columnCell.allSatisfy { $0 >= 0 && Int($0) + 1 < grid.refinedWidth }, "a column beyond the refined grid")
        assert(rowCell.allSatisfy { $0 >= 0 && Int($0) + 1 < grid.refinedHeight }, "a row beyond the refined grid")
        background = BackgroundSampler(
            fill: spec.background, width: spec.width, height: spec.height, space: spec.colorSpace,
            mixing: spec.mixingSpace)
        decoder = spec.mixing.isIdentity ? nil : MixingDecoder(spec.mixing)
        grain = spec.grain.map { GrainLayer(field: $0, width: spec.width) }
    }

    func run(
        blurred: UnsafeBufferPointer<SIMD4<Float>>, format: PixelFormat, matrix: YUVMatrix = .bt709, dither: Bool,
        frameIndex: Int, into output: UnsafeMutableRawBufferPointer, threads: Int
    ) {
        let offset = Dither.offset(frame: frameIndex)
        let output = SharedBuffer(bytes: output)
        let grainTile = grain.map { layer in (layer, layer.tile(phase: layer.field.phase(frame: frameIndex))) }
        // 4:2:0 pairs rows for its chroma, so work in row pairs throughout. yuv420p10le takes the
        // general path: the encoders that take it cost far more than its pass. So does yuv420p
        // with grain, which acts on each pixel's RGB before the expanded rows' Y′CbCr.
        let pairs = (spec.height + 1) / 2
        let expandable =
            grid.horizontal.cellSize > 1 && background.opaqueConstant != nil
            && (format == .rgba || (format == .yuv420p && grain == nil))
        parallelChunks(pairs, threads: threads, minimumChunk: 8) { pairRange in
            var grainRows = grainTile.map {
                GrainLayer.Rows(layer: $0.0, tile: $0.1, dither: dither && format.bitDepth == 8, offsetY: offset.y)
            }
            defer { grainRows?.deallocate() }
            if expandable {
                runExpanded(
                    pairs: pairRange, blurred: blurred, format: format, matrix: matrix, dither: dither, offset: offset,
                    grain: &grainRows, into: output.bytes)
            } else {
                runGeneral(
                    pairs: pairRange, blurred: blurred, format: format, matrix: matrix, dither: dither, offset: offset,
                    grain: &grainRows, into: output.bytes)
            }
        }
    }

    private func runGeneral(
        pairs: Range<Int>, blurred: UnsafeBufferPointer<SIMD4<Float>>, format: PixelFormat, matrix: YUVMatrix,
        dither: Bool, offset: (x: Int, y: Int), grain: inout GrainLayer.Rows?,
        into output: UnsafeMutableRawBufferPointer
    ) {
        let width = spec.width, height = spec.height, rowWidth = grid.refinedWidth
        let packer = Packer(
            format: format, dither: dither, ditherOffset: offset, width: width, height: height, matrix: matrix)
        let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * rowWidth + 2 * width)
        defer { scratch.deallocate() }
        let values = scratch, deltas = scratch + rowWidth
        let shadedRows = (scratch + 2 * rowWidth, scratch + 2 * rowWidth + width)
        columnCell.withUnsafeBufferPointer { columnCell in
            columnFraction.withUnsafeBufferPointer { columnFraction in
                for pair in pairs {
                    for row in [2 * pair, 2 * pair + 1] where row < height {
                        let shaded = row % 2 == 0 ? shadedRows.0 : shadedRows.1
                        prepareRow(row, blurred: blurred, values: values)
                        OutputPass.differences(of: values, count: rowWidth, into: deltas)
                        shadeRow(
                            row, values: values, deltas: deltas, columnCell: columnCell,
                            columnFraction: columnFraction, unpremultiply: format.hasAlpha && decoder == nil,
                            into: shaded)
                        if background.opaqueConstant == nil {
                            decoder?.decode(shaded, count: width, unpremultiply: format.hasAlpha)
                        }
                        // Without alpha, a frame that may be transparent is shaded premultiplied.
                        grain?.row(row).apply(
                            to: shaded, count: spec.width,
                            premultiplied: !format.hasAlpha && background.opaqueConstant == nil)
                        packer.pack(row: row, shaded: shaded, into: output)
                    }
                    if format.isYUV420 {
                        let second = 2 * pair + 1 < height ? shadedRows.1 : shadedRows.0
                        packer.packChroma(pair: pair, rows: (shadedRows.0, second), into: output)
                    }
                }
            }
        }
    }

    /// The hot case, an opaque solid background into 8-bit RGBA or yuv420p on a reduced
    /// grid, by ``ExpandedRows``.
    private func runExpanded(
        pairs: Range<Int>, blurred: UnsafeBufferPointer<SIMD4<Float>>, format: PixelFormat, matrix: YUVMatrix,
        dither: Bool, offset: (x: Int, y: Int), grain: inout GrainLayer.Rows?,
        into output: UnsafeMutableRawBufferPointer
    ) {
        let rows = ExpandedRows(
            width: spec.width, format: format, weights: matrix.weights, columnCell: columnCell,
            columnFraction: columnFraction,
            columnRunEnds: columnRunEnds, columnFractionLanes: columnFractionLanes, decoder: decoder)
        let window = ExpandedRows.Window(width: spec.width, cellCount: grid.refinedWidth, format: format)
        let base = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let background = background.opaqueConstant!
        Dither.paddedThresholds.withUnsafeBufferPointer { padded in
            Dither.paddedHalf.withUnsafeBufferPointer { half in
                Dither.paddedLaneThresholds.withUnsafeBufferPointer { lanes in
                    Dither.paddedLaneHalf.withUnsafeBufferPointer { laneHalf in
                        let thresholds = PaddedThresholds(
                            padded: padded.baseAddress!, half: half.baseAddress!, lanes: lanes.baseAddress!,
                            laneHalf: laneHalf.baseAddress!, dither: dither, offsetY: offset.y)
                        for pair in pairs {
                            for row in [2 * pair, 2 * pair + 1] where row < spec.height {
                                expandedRow(
                                    row, rows: rows, window: window, blurred: blurred, background: background,
                                    thresholds: thresholds, phase: offset.x, grain: grain?.row(row), into: base)
                            }
                            if format == .yuv420p {
                                expandedChroma(
                                    pair: pair, window: window, thresholds: thresholds, phase: offset.x, into: base)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Output row `row` from the two grid rows around it: RGBA whole, or yuv420p's luma
    /// with its chroma accumulated in `window.chroma` over the row pair.
    @inline(__always)
    private func expandedRow(
        _ row: Int, rows: ExpandedRows, window: ExpandedRows.Window, blurred: UnsafeBufferPointer<SIMD4<Float>>,
        background: SIMD4<Float>, thresholds: PaddedThresholds, phase: Int, grain: GrainRow?,
        into base: UnsafeMutablePointer<UInt8>
    ) {
        let width = spec.width, rowWidth = grid.refinedWidth
        let (upperRow, lowerRow) = rows.slide(
            window, to: Int(rowCell[row]), blurred: blurred, rowWidth: rowWidth, background: background)
        let g = rowFraction[row]
        if rows.format == .rgba {
            let upper = upperRow.assumingMemoryBound(to: SIMD4<Float>.self)
            let lower = lowerRow.assumingMemoryBound(to: SIMD4<Float>.self)
            if let grain {
                // Within a cell a pixel's fraction grows by refinement / cell size (``WorkingGrid/Axis``).
                let step = Float(Double(grid.horizontal.refinement) / grid.horizontal.cellSize)
                rows.packRGBA(
                    upper: upper, lower: lower, fraction: g, rowWidth: rowWidth, scratch: window.scratch, phase: phase,
                    fractionStep: step, grain: grain, into: base + row * width * 4)
            } else {
                rows.packRGBA(
                    upper: upper, lower: lower, fraction: g, rowWidth: rowWidth, scratch: window.scratch,
                    thresholds: thresholds.rgba(tileRow: row), phase: phase, into: base + row * width * 4)
            }
            return
        }
        let upper = upperRow.assumingMemoryBound(to: Float.self), lower = lowerRow.assumingMemoryBound(to: Float.self)
        ExpandedRows.packPlane(
            upper: upper, lower: lower, fraction: g, count: width, thresholds: thresholds.lane(0, tileRow: row),
            phase: phase, into: base + row * width)
        // Chroma: accumulate the pair's two rows, then halve (the 2×2 mean).
        for plane in 0..<2 {
            let a = upper + (1 + plane) * width, b = lower + (1 + plane) * width
            let sum = window.chroma + plane * width
            for x in 0..<width {
                let v = a[x] + g * (b[x] - a[x])
                sum[x] = row % 2 == 0 ? v : (sum[x] + v) * 0.5
            }
        }
    }

    /// yuv420p's Cb and Cr rows of row pair `pair`, from the rows' chroma in `window.chroma`.
    @inline(__always)
    private func expandedChroma(
        pair: Int, window: ExpandedRows.Window, thresholds: PaddedThresholds, phase: Int,
        into base: UnsafeMutablePointer<UInt8>
    ) {
        let width = spec.width, height = spec.height
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        for plane in 0..<2 {
            let sum = window.chroma + plane * width
            for cx in 0..<chromaWidth { sum[cx] = (sum[2 * cx] + sum[min(2 * cx + 1, width - 1)]) * 0.5 }
            let target = base + width * height + plane * chromaWidth * chromaHeight + pair * chromaWidth
            ExpandedRows.packPlane(
                upper: sum, lower: sum, fraction: 0, count: chromaWidth,
                thresholds: thresholds.lane(1 + plane, tileRow: pair), phase: phase, into: target)
        }
    }

    /// `values[i] = A[i] + g·(B[i] − A[i])`: two rows of cells interpolated to a height between them.
    @inline(__always)
    static func interpolate(
        _ upper: UnsafePointer<SIMD4<Float>>, _ lower: UnsafePointer<SIMD4<Float>>, fraction g: Float, count: Int,
        into values: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        for cell in 0..<count { values[cell] = upper[cell] + g * (lower[cell] - upper[cell]) }
    }

    /// `deltas[i] = values[i + 1] − values[i]`, and 0 for the last: the slope a pixel
    /// between cells i and i + 1 is interpolated along.
    @inline(__always)
    static func differences(
        of values: UnsafePointer<SIMD4<Float>>, count: Int, into deltas: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        for cell in 0..<(count - 1) { deltas[cell] = values[cell + 1] - values[cell] }
        deltas[count - 1] = .zero
    }

    /// The blurred grid interpolated to `row`'s height, across all kept cells. With a
    /// constant opaque background the background is composited here already:
    /// compositing onto a constant is affine, so it commutes with the interpolation.
    @inline(__always)
    private func prepareRow(
        _ row: Int, blurred: UnsafeBufferPointer<SIMD4<Float>>, values: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let rowWidth = grid.refinedWidth
        let upper = blurred.baseAddress! + Int(rowCell[row]) * rowWidth
        let lower = upper + rowWidth
        let g = rowFraction[row]
        if let color = background.opaqueConstant {
            for cell in 0..<rowWidth {
                let p = upper[cell] + g * (lower[cell] - upper[cell])
                values[cell] = p + color * (1 - p.w)
            }
            // Opaque throughout: converted back at the refined columns, then spread between them.
            decoder?.decode(values, count: rowWidth, unpremultiply: false)
        } else {
            OutputPass.interpolate(upper, lower, fraction: g, count: rowWidth, into: values)
        }
    }

    /// Straight (or, without alpha, over-black premultiplied) colours of `row`, in 0...1.
    @inline(__always)
    private func shadeRow(
        _ row: Int, values: UnsafeMutablePointer<SIMD4<Float>>, deltas: UnsafeMutablePointer<SIMD4<Float>>,
        columnCell: UnsafeBufferPointer<Int32>, columnFraction: UnsafeBufferPointer<Float>,
        unpremultiply: Bool, into shaded: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let width = spec.width
        if background.opaqueConstant != nil {
            for x in 0..<width {
                let cell = Int(columnCell[x])
                shaded[x] = values[cell] + columnFraction[x] * deltas[cell]
            }
        } else {
            background.fill(row: row, into: shaded)
            for x in 0..<width {
                let cell = Int(columnCell[x])
                let p = values[cell] + columnFraction[x] * deltas[cell]
                var out = p + shaded[x] * (1 - p.w)
                if unpremultiply {
                    let alpha = out.w
                    out = alpha > 0 ? out / alpha : .zero
                    out.w = alpha
                }
                shaded[x] = out
            }
        }
    }
}

/// The dither's padded thresholds for one frame (``Dither/paddedThresholds``), or ½
/// everywhere without dither: the rows the expanded output pass reads.
private struct PaddedThresholds {
    let padded: UnsafePointer<SIMD4<Float>>
    let half: UnsafePointer<SIMD4<Float>>
    let lanes: UnsafePointer<Float>
    let laneHalf: UnsafePointer<Float>
    let dither: Bool
    let offsetY: Int

    /// The RGBA thresholds of output row `tileRow`, as floats.
    @inline(__always)
    func rgba(tileRow: Int) -> UnsafePointer<Float> {
        let row = dither ? padded + ((tileRow + offsetY) & 63) * 80 : half
        return UnsafeRawPointer(row).assumingMemoryBound(to: Float.self)
    }

    /// Channel `lane`'s thresholds of output row `tileRow`, for a single-component plane.
    @inline(__always)
    func lane(_ lane: Int, tileRow: Int) -> UnsafePointer<Float> {
        dither ? lanes + lane * Dither.paddedLaneCount + ((tileRow + offsetY) & 63) * 80 : laneHalf
    }
}
