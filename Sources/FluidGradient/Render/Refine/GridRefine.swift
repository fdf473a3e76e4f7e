extension WorkingGrid {
    /// Refines the blurred grid 2× along both axes by Catmull-Rom interpolation: node
    /// 2i is blurred cell i − 1 and node 2i + 1 the midpoint
    /// `(−v₀ + 9v₁ + 9v₂ − v₃)/16` of cells i − 2 ... i + 1. Unrefined axes are copied.
    /// Both passes go row by row, so each reads and writes contiguous rows, split over threads.
    package func refine(
        _ blurred: UnsafeBufferPointer<SIMD4<Float>>, scratch: UnsafeMutableBufferPointer<SIMD4<Float>>,
        into refined: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let inWidth = blurredWidth, midWidth = refinedWidth
        let threads = blurredHeight * midWidth < 200_000 ? 1 : threads
        // A midpoint reads four blurred cells from node / 2, an even node the cell after it.
        assert(horizontal.refinement == 1 || midWidth / 2 + 2 < inWidth, "refined nodes beyond the blurred row")
        assert(vertical.refinement == 1 || refinedHeight / 2 + 2 < blurredHeight, "refined rows beyond the blur")
        let scratchRows = SharedBuffer(scratch), refinedRows = SharedBuffer(refined)
        // Along x: each blurred row into `scratch` (blurredHeight × refinedWidth).
        let alongX = horizontal.refinement == 2
        parallelChunks(blurredHeight, threads: threads, minimumChunk: 8) { rows in
            for row in rows {
                let source = blurred.baseAddress! + row * inWidth
                let target = scratchRows.pointer(at: row * midWidth, length: midWidth)
                guard alongX else {
                    target.update(from: source, count: inWidth)
                    continue
                }
                for node in 0..<midWidth {
                    target[node] =
                        node % 2 == 0
                        ? source[node / 2 + 1] : WorkingGrid.midpoint(source + node / 2, stride: 1)
                }
            }
        }
        // Along y: each refined row from the scratch rows around it.
        let alongY = vertical.refinement == 2
        parallelChunks(refinedHeight, threads: threads, minimumChunk: 8) { nodes in
            let source = UnsafePointer(scratchRows.pointer(at: 0, length: blurredHeight * midWidth))
            for node in nodes {
                let target = refinedRows.pointer(at: node * midWidth, length: midWidth)
                if !alongY {
                    target.update(from: source + node * midWidth, count: midWidth)
                } else if node % 2 == 0 {
                    target.update(from: source + (node / 2 + 1) * midWidth, count: midWidth)
                } else {
                    let first = source + (node / 2) * midWidth
                    for column in 0..<midWidth {
                        target[column] = WorkingGrid.midpoint(first + column, stride: midWidth)
                    }
                }
            }
        }
    }

    /// `(9(b + c) − a − d)/16` of `a, b, c, d` at `values[0]`, `values[stride]`, ...: the
    /// Catmull-Rom midpoint between b and c.
    @inline(__always)
    static func midpoint(_ values: UnsafePointer<SIMD4<Float>>, stride: Int) -> SIMD4<Float> {
        let a = values[0], b = values[stride], c = values[2 * stride], d = values[3 * stride]
        return (9 * (b + c) - a - d) * (1 / 16)
    }
}
