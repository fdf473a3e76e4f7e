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
        // Kept cell −1 sits at grid index margin − 1 = radius, and its first tap at 0.
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
                    var sums = [SIMD4<Float>](repeating: .zero, count: outWidth)
                    sums.withUnsafeMutableBufferPointer { sums in
                        for tap in 0..<taps {
                            let weight = kernel[tap]
                            let source = horizontal.base.baseAddress! + (row + tap) * outWidth
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
