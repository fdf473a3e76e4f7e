extension WorkingGrid {
    /// Blurs `grid` with the separable Gaussian of each axis's kernel, keeping only the
    /// `blurredWidth × blurredHeight` cells around the frame.
    ///
    /// Horizontal pass: every grid row, kept columns only. Vertical pass: kept rows.
    /// `scratch` holds `gridHeight × blurredWidth` values.
    package func blur(
        _ grid: UnsafeBufferPointer<SIMD4<Float>>, kernels: (horizontal: [Float], vertical: [Float]),
        scratch: UnsafeMutableBufferPointer<SIMD4<Float>>,
        into blurred: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let gridWidth = self.gridWidth, outWidth = blurredWidth
        // Waking threads costs more than it saves on grids this size: at 4K with σ 46
        // pixels (exponent 0.5), 0.20 ms on one thread against 0.25 on two, measured on 2
        // cores. Only larger grids (4K below σ 17 pixels, or larger frames) split.
        let threads = gridHeight * outWidth * kernels.horizontal.count < 2_000_000 ? 1 : threads
        // The first kept cell sits at grid index margin + firstKept = radius: its first tap is at 0,
        // and the last kept cell's last tap is the grid's last cell.
        assert(outWidth + kernels.horizontal.count - 1 == gridWidth, "the blur's taps reach beyond the grid row")
        assert(blurredHeight + kernels.vertical.count - 1 == gridHeight, "the blur's taps reach beyond the grid column")
        assert(grid.count == gridWidth * gridHeight, "a grid of another size")
        let horizontal = SharedBuffer(scratch)
        kernels.horizontal.withUnsafeBufferPointer { kernel in
            parallelChunks(gridHeight, threads: threads, minimumChunk: 8) { rows in
                for row in rows {
                    let source = grid.baseAddress! + row * gridWidth
                    WorkingGrid.convolve(
                        kernel, count: outWidth, tap: { source + $0 },
                        into: horizontal.pointer(at: row * outWidth, length: outWidth))
                }
            }
        }
        let blurred = SharedBuffer(blurred)
        kernels.vertical.withUnsafeBufferPointer { kernel in
            parallelChunks(blurredHeight, threads: threads, minimumChunk: 4) { rows in
                let source = UnsafePointer(horizontal.pointer(at: 0, length: gridHeight * outWidth))
                for row in rows {
                    WorkingGrid.convolve(
                        kernel, count: outWidth, tap: { source + (row + $0) * outWidth },
                        into: blurred.pointer(at: row * outWidth, length: outWidth))
                }
            }
        }
    }

    /// `out[i] = Σₜ kernel[t]·tap(t)[i]` for a symmetric kernel of `2r + 1` taps, as
    /// `kernel[r]·tap(r)[i] + Σ_{t<r} kernel[t]·(tap(t)[i] + tap(2r − t)[i])`, summed in
    /// that order: half the multiplications. Four outputs at a time stay in registers
    /// over all the taps, so each tap costs two loads per output and no store.
    @inline(__always)
    static func convolve(
        _ kernel: UnsafeBufferPointer<Float>, count: Int, tap: (Int) -> UnsafePointer<SIMD4<Float>>,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let r = kernel.count / 2
        let middle = tap(r), centre = kernel[r]
        var i = 0
        while i + 4 <= count {
            var a = centre * middle[i], b = centre * middle[i + 1]
            var c = centre * middle[i + 2], d = centre * middle[i + 3]
            for t in 0..<r {
                let weight = kernel[t], near = tap(t) + i, far = tap(2 * r - t) + i
                a += weight * (near[0] + far[0])
                b += weight * (near[1] + far[1])
                c += weight * (near[2] + far[2])
                d += weight * (near[3] + far[3])
            }
            out[i] = a
            out[i + 1] = b
            out[i + 2] = c
            out[i + 3] = d
            i += 4
        }
        while i < count {
            var a = centre * middle[i]
            for t in 0..<r { a += kernel[t] * (tap(t)[i] + tap(2 * r - t)[i]) }
            out[i] = a
            i += 1
        }
    }
}
