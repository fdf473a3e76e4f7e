import CVectorMath

/// A ``CompiledScene`` over borrowed buffers, valid inside ``CompiledScene/withView(_:)``.
struct SceneView: @unchecked Sendable {
    typealias ReducedOperation = CompiledScene.ReducedOperation

    let blobs: UnsafeBufferPointer<PlacedBlob>
    /// The scene's program, in which every blob varies.
    let program: UnsafeBufferPointer<ReducedOperation>
    let affineAfter: UnsafeBufferPointer<Bool>
    let depth: Int

    /// Composites one sample, given each blob's coverage through `coverage(blobIndex)`.
    /// `stack` must hold at least ``depth`` elements.
    @inline(__always)
    func composite(stack: UnsafeMutablePointer<SIMD4<Float>>, coverage: (Int) -> Float) -> SIMD4<Float> {
        guard let start = program.baseAddress else { return .zero }
        return composite(start, count: program.count, stack: stack, coverage: coverage)
    }

    /// The program for one cell, where blobs with `coverage[b] ≥ 0` are fixed at that
    /// coverage and blobs with `coverage[b] < 0` vary: each run of fixed blobs folds into
    /// one affine map, since `s + top·(1 − αs)` composes as `top·Π(1 − αᵢ) + Σ …`.
    /// Returns the number of operations written, at most the scene program's length.
    func reduce(coverage: UnsafePointer<Float>, into out: UnsafeMutablePointer<ReducedOperation>) -> Int {
        var count = 0
        var scale: Float = 1, offset = SIMD4<Float>.zero, pending = false
        func flush() {
            if pending {
                out[count] = .affine(scale: scale, offset: offset)
                count += 1
            }
            scale = 1
            offset = .zero
            pending = false
        }
        for operation in program {
            switch operation {
            case .begin:
                flush()
                out[count] = .begin
                count += 1
            case .affine:
                // The scene's own program has none.
                continue
            case .blob(let index):
                let c = coverage[index]
                if c >= 0 {
                    if c > 0 {
                        let source = blobs[index].color * c
                        scale *= 1 - source.w
                        offset = source + offset * (1 - source.w)
                        pending = true
                    }
                } else {
                    flush()
                    out[count] = .blob(index: index)
                    count += 1
                }
            case .end(let mode):
                flush()
                out[count] = .end(mode: mode)
                count += 1
            }
        }
        flush()
        return count
    }

    /// Whether every blend in a reduced program is affine in its source and in its
    /// backdrop, so that the composite is multilinear in the varying blobs' coverages.
    func isMultilinear(_ program: UnsafePointer<ReducedOperation>, count: Int) -> Bool {
        for step in 0..<count {
            switch program[step] {
            case .begin, .affine, .blob:
                continue
            case .end(let mode):
                if !(mode.isAffineInSource && mode.isAffineInBackdrop) { return false }
            }
        }
        return true
    }

    /// Composites one sample of a reduced program; `coverage(b)` gives the varying blobs' coverage.
    @inline(__always)
    func composite(
        _ program: UnsafePointer<ReducedOperation>, count: Int, stack: UnsafeMutablePointer<SIMD4<Float>>,
        coverage: (Int) -> Float
    ) -> SIMD4<Float> {
        var top = 0
        stack[0] = .zero
        for step in 0..<count {
            switch program[step] {
            case .begin:
                top += 1
                stack[top] = .zero
            case .affine(let scale, let offset):
                stack[top] = stack[top] * scale + offset
            case .blob(let index):
                let c = coverage(index)
                if c > 0 {
                    let source = blobs[index].color * c
                    stack[top] = source + stack[top] * (1 - source.w)
                }
            case .end(let mode):
                let source = stack[top]
                top -= 1
                if let overlay = MixedOverlay.of(mode) {
                    stack[top] = overlay.composite(source: source, backdrop: stack[top])
                } else {
                    stack[top] = mode.composite(source: source, backdrop: stack[top])
                }
            }
        }
        return stack[0]
    }
}
