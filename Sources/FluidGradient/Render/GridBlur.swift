extension WorkingGrid {
    /// Blurs `grid` with the separable Gaussian `kernel` (2·radius + 1 taps), keeping
    /// only the `blurredWidth × blurredHeight` cells around the frame.
    ///
    /// Horizontal pass: every grid row, kept columns only. Vertical pass: kept rows.
    func blur(
        _ grid: UnsafeBufferPointer<SIMD4<Float>>, kernel: [Float],
        scratch: UnsafeMutableBufferPointer<SIMD4<Float>>,
        into blurred: UnsafeMutableBufferPointer<SIMD4<Float>>, threads: Int
    ) {
        let taps = kernel.count
        let gridWidth = self.gridWidth, outWidth = blurredWidth
        // Kept cell −1 sits at grid index margin − 1, and its first tap radius cells left.
        let firstColumn = margin - 1 - radius
        let horizontal = UncheckedBuffer(scratch)
        kernel.withUnsafeBufferPointer { kernel in
            parallelChunks(gridHeight, threads: threads, minimumChunk: 8) { rows in
                for row in rows {
                    let source = grid.baseAddress! + row * gridWidth + firstColumn
                    for column in 0..<outWidth {
                        var sum = SIMD4<Float>.zero
                        for tap in 0..<taps {
                            sum += kernel[tap] * source[column + tap]
                        }
                        horizontal[row * outWidth + column] = sum
                    }
                }
            }
            let blurred = UncheckedBuffer(blurred)
            let firstRow = margin - 1 - radius
            parallelChunks(blurredHeight, threads: threads, minimumChunk: 4) { rows in
                for row in rows {
                    var sums = [SIMD4<Float>](repeating: .zero, count: outWidth)
                    sums.withUnsafeMutableBufferPointer { sums in
                        for tap in 0..<taps {
                            let weight = kernel[tap]
                            let source = horizontal.base.baseAddress! + (firstRow + row + tap) * outWidth
                            for column in 0..<outWidth {
                                sums[column] += weight * source[column]
                            }
                        }
                        for column in 0..<outWidth {
                            blurred[row * outWidth + column] = sums[column]
                        }
                    }
                }
            }
        }
    }
}
