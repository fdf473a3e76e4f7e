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
        // Small grids are not worth waking threads for.
        let threads = gridHeight * outWidth * kernels.horizontal.count < 50_000 ? 1 : threads
        // The first kept cell sits at grid index margin + firstKept = radius: its first tap is at 0.
        let horizontal = UncheckedBuffer(scratch)
        kernels.horizontal.withUnsafeBufferPointer { kernel in
            let taps = kernel.count
            parallelChunks(gridHeight, threads: threads, minimumChunk: 8) { rows in
                for row in rows {
                    let source = grid.baseAddress! + row * gridWidth
                    for column in 0..<outWidth {
                        var sum = SIMD4<Float>.zero
                        for tap in 0..<taps {
                            sum += kernel[tap] * source[column + tap]
                        }
                        horizontal[row * outWidth + column] = sum
                    }
                }
            }
        }
        let blurred = UncheckedBuffer(blurred)
        kernels.vertical.withUnsafeBufferPointer { kernel in
            let taps = kernel.count
            parallelChunks(blurredHeight, threads: threads, minimumChunk: 4) { rows in
                for row in rows {
                    let sums = blurred.base.baseAddress! + row * outWidth
                    sums.update(repeating: .zero, count: outWidth)
                    for tap in 0..<taps {
                        let weight = kernel[tap]
                        let source = horizontal.base.baseAddress! + (row + tap) * outWidth
                        for column in 0..<outWidth {
                            sums[column] += weight * source[column]
                        }
                    }
                }
            }
        }
    }
}

extension WorkingGrid {
    /// Refines the blurred grid 2× along both axes by Catmull-Rom interpolation: node
    /// 2i is blurred cell i − 1 and node 2i + 1 the midpoint
    /// `(−v₀ + 9v₁ + 9v₂ − v₃)/16` of cells i − 2 ... i + 1. Unrefined axes are copied.
    package func refine(
        _ blurred: UnsafeBufferPointer<SIMD4<Float>>, scratch: UnsafeMutableBufferPointer<SIMD4<Float>>,
        into refined: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        // Along x: each blurred row into `scratch` (blurredHeight × refinedWidth).
        let inWidth = blurredWidth, midWidth = refinedWidth
        for row in 0..<blurredHeight {
            let source = blurred.baseAddress! + row * inWidth, target = scratch.baseAddress! + row * midWidth
            WorkingGrid.refineLine(source, count: inWidth, stride: 1, refined: horizontal.refinement == 2, into: target, targetStride: 1, outCount: midWidth)
        }
        // Along y: each column of `scratch` into `refined`.
        for column in 0..<midWidth {
            WorkingGrid.refineLine(
                UnsafePointer(scratch.baseAddress! + column), count: blurredHeight, stride: midWidth,
                refined: vertical.refinement == 2, into: refined.baseAddress! + column, targetStride: midWidth, outCount: refinedHeight)
        }
    }

    @inline(__always)
    static func refineLine(
        _ source: UnsafePointer<SIMD4<Float>>, count: Int, stride: Int, refined: Bool,
        into target: UnsafeMutablePointer<SIMD4<Float>>, targetStride: Int, outCount: Int
    ) {
        guard refined else {
            for i in 0..<count { target[i * targetStride] = source[i * stride] }
            return
        }
        for node in 0..<outCount {
            let i = node / 2
            if node % 2 == 0 {
                target[node * targetStride] = source[(i + 1) * stride]
            } else {
                let a = source[i * stride], b = source[(i + 1) * stride], c = source[(i + 2) * stride], d = source[(i + 3) * stride]
                target[node * targetStride] = (9 * (b + c) - a - d) * (1 / 16)
            }
        }
    }
}
