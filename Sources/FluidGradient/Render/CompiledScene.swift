import CVectorMath

/// A blob placed in pixel space, in the `Float` form the production path uses.
package struct PlacedBlob {
    var center: SIMD2<Float>
    /// The semi-axes `(|rx|·W, |ry|·H)` in pixels.
    var semiAxes: SIMD2<Float>
    var inverseSemiAxes: SIMD2<Float>
    /// Premultiplied colour at full coverage, with the blob's and its layer's opacity.
    var color: SIMD4<Float>
    /// Zero radius or fully transparent: draws nothing.
    package var isEmpty: Bool

    package init(blob: Blob, frame: LayerRect, opacity: Double) {
        let semiAxes = SIMD2(Float(abs(blob.radius.x) * frame.width), Float(abs(blob.radius.y) * frame.height))
        let color = SIMD4<Float>(blob.premultipliedColor * opacity)
        let isEmpty = !(semiAxes.x > 0 && semiAxes.y > 0) || color == .zero
        self.center = SIMD2(Float(frame.x + blob.center.x * frame.width), Float(frame.y + blob.center.y * frame.height))
        self.semiAxes = semiAxes
        self.color = color
        self.isEmpty = isEmpty
        self.inverseSemiAxes = isEmpty ? .zero : 1 / semiAxes
    }

    /// Coverage at pixel-space point `p` (DESIGN section 2): the definition, which the
    /// rasteriser computes from per-row and per-column terms of `d²` instead; tests check
    /// the vector form against it.
    @inline(__always)
    package func coverage(at p: SIMD2<Float>) -> Float {
        let q = (p - center) * inverseSemiAxes
        return PlacedBlob.coverage(squaredDistance: q.x * q.x + q.y * q.y)
    }

    /// Coverage at a normalised squared distance `d² = ((x − cx)/a)² + ((y − cy)/b)²`:
    /// 1 up to d = 0.9, falling linearly to 0 at d = 1.
    @inline(__always)
    package static func coverage(squaredDistance d2: Float) -> Float {
        if d2 <= 0.81 { return 1 }
        if d2 >= 1 { return 0 }
        return (1 - d2.squareRoot()) * 10
    }

    /// ``coverage(squaredDistance:)`` of four squared distances at once, bit for bit.
    @inline(__always)
    package static func coverage(squaredDistances d2: SIMD4<Float>) -> SIMD4<Float> {
        let rim = (1 - fg_square_root4(d2)) * 10
        return rim.replacing(with: 0, where: d2 .>= 1).replacing(with: 1, where: d2 .<= 0.81)
    }
}

/// A layer tree flattened into a stack program, so the production path can composite
/// one sample with a few array reads and no recursion.
struct CompiledScene {
    /// One step of a program. The scene's own program has no `affine` steps; a program
    /// specialised to a cell folds its fixed blobs into them (see
    /// ``SceneView/reduce(coverage:into:)``).
    enum ReducedOperation {
        /// Push a transparent accumulator for a group layer.
        case begin
        /// `top = top·scale + offset`: a run of normal-blended blobs of fixed coverage.
        case affine(scale: Float, offset: SIMD4<Float>)
        /// Blend blob `index` (coverage-scaled) onto the top accumulator.
        case blob(index: Int, mode: BlendMode)
        /// Pop the top accumulator, scale it by `opacity` and blend it onto the next.
        case end(mode: BlendMode, opacity: Float)
    }

    var blobs: [PlacedBlob] = []
    /// The deepest the accumulator stack gets, including the bottom one.
    var depth = 1
    /// `affineAfter[b]`: whether every blend after blob `b` is affine in `b`'s coverage
    /// (others held fixed). Then averaging that one coverage over an area gives the
    /// area's average composite. The highlight layer's overlay is not affine in its
    /// backdrop, so it is false for base blobs.
    private(set) var affineAfter: [Bool] = []

    /// The layer tree as a program in which every blob varies.
    private(set) var program: [ReducedOperation] = []

    init(root: Layer) {
        compile(root, level: 1)
        affineAfter = blobs.indices.map(isAffineAfter)
    }

    /// Runs `body` with a view of the scene over unsafe buffers: the hot loops read it
    /// from several threads without reference counting.
    func withView<R>(_ body: (SceneView) -> R) -> R {
        blobs.withUnsafeBufferPointer { blobs in
            affineAfter.withUnsafeBufferPointer { affineAfter in
                program.withUnsafeBufferPointer { program in
                    body(SceneView(blobs: blobs, program: program, affineAfter: affineAfter, depth: depth))
                }
            }
        }
    }

    /// Follows where blob `b`'s effect lives on the accumulator stack and checks each
    /// later blend it enters, as source or as backdrop.
    private func isAffineAfter(_ b: Int) -> Bool {
        var level = 0, effect: Int? = nil
        for operation in program {
            switch operation {
            case .begin:
                level += 1
            case .affine:
                continue
            case .blob(let index, let mode):
                if index == b {
                    effect = level
                } else if effect == level, !mode.isAffineInBackdrop {
                    return false
                }
            case .end(let mode, _):
                if effect == level {
                    if !mode.isAffineInSource { return false }
                    effect = level - 1
                } else if effect == level - 1, !mode.isAffineInBackdrop {
                    return false
                }
                level -= 1
            }
        }
        return true
    }

    private mutating func compile(_ layer: Layer, level: Int) {
        // A childless blob layer blends its blob directly; its opacity goes into the colour.
        if case .blob(let blob) = layer.content, layer.sublayers.isEmpty {
            blobs.append(PlacedBlob(blob: blob, frame: layer.frame, opacity: layer.opacity))
            program.append(.blob(index: blobs.count - 1, mode: layer.blendMode))
            return
        }
        depth = max(depth, level + 1)
        program.append(.begin)
        if case .blob(let blob) = layer.content {
            blobs.append(PlacedBlob(blob: blob, frame: layer.frame, opacity: 1))
            program.append(.blob(index: blobs.count - 1, mode: .normal))
        }
        for sublayer in layer.sublayers {
            compile(sublayer, level: level + 1)
        }
        program.append(.end(mode: layer.blendMode, opacity: Float(layer.opacity)))
    }
}

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
    /// coverage and blobs with `coverage[b] < 0` vary: each run of fixed, normal-blended
    /// blobs folds into one affine map, since `s + top·(1 − αs)` composes as
    /// `top·Π(1 − αᵢ) + Σ …`. Returns the number of operations written.
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
            case .blob(let index, let mode):
                let c = coverage[index]
                if c >= 0, mode == .normal {
                    if c > 0 {
                        let source = blobs[index].color * c
                        scale *= 1 - source.w
                        offset = source + offset * (1 - source.w)
                        pending = true
                    }
                } else {
                    flush()
                    out[count] = .blob(index: index, mode: mode)
                    count += 1
                }
            case .end(let mode, let opacity):
                flush()
                out[count] = .end(mode: mode, opacity: opacity)
                count += 1
            }
        }
        return count
    }

    /// Whether every blend in a reduced program is affine in its source and in its
    /// backdrop, so that the composite is multilinear in the varying blobs' coverages.
    func isMultilinear(_ program: UnsafePointer<ReducedOperation>, count: Int) -> Bool {
        for step in 0..<count {
            switch program[step] {
            case .begin, .affine:
                continue
            case .blob(_, let mode), .end(let mode, _):
                if !(mode.isAffineInSource && mode.isAffineInBackdrop) { return false }
            }
        }
        return true
    }

    /// Composites `samples` samples at once with a reduced program into `stack[s]`, laid
    /// out like `sampled`. Varying blob `b`'s coverage at sample `s` is
    /// `sampled[b·stride + s]`; `stack` holds `depth` rows of `stride` values.
    ///
    /// Each sample gets exactly the arithmetic of the one-sample ``composite(_:count:stack:coverage:)``;
    /// running each operation over all samples keeps the interpreter's dispatch out of
    /// the inner loop.
    @inline(__always)
    func compositeSamples(
        _ program: UnsafePointer<ReducedOperation>, count: Int, samples: Int, stride: Int,
        coverage: UnsafePointer<Float>, sampled: UnsafePointer<Float>, stack: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        var top = stack
        top.update(repeating: .zero, count: samples)
        for step in 0..<count {
            switch program[step] {
            case .begin:
                top += stride
                top.update(repeating: .zero, count: samples)
            case .affine(let scale, let offset):
                for s in 0..<samples { top[s] = top[s] * scale + offset }
            case .blob(let index, let mode):
                let color = blobs[index].color, fixed = coverage[index]
                if fixed > 0 {
                    let source = color * fixed
                    for s in 0..<samples { top[s] = mode.composite(source: source, backdrop: top[s]) }
                } else if fixed < 0 {
                    let c = sampled + index * stride
                    if mode == .normal {
                        for s in 0..<samples where c[s] > 0 {
                            let source = color * c[s]
                            top[s] = source + top[s] * (1 - source.w)
                        }
                    } else {
                        for s in 0..<samples where c[s] > 0 {
                            top[s] = mode.composite(source: color * c[s], backdrop: top[s])
                        }
                    }
                }
            case .end(let mode, let opacity):
                let below = top - stride
                for s in 0..<samples { below[s] = mode.composite(source: top[s] * opacity, backdrop: below[s]) }
                top = below
            }
        }
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
            case .blob(let index, let mode):
                let c = coverage(index)
                if c > 0 {
                    stack[top] = mode.composite(source: blobs[index].color * c, backdrop: stack[top])
                }
            case .end(let mode, let opacity):
                let source = stack[top] * opacity
                top -= 1
                stack[top] = mode.composite(source: source, backdrop: stack[top])
            }
        }
        return stack[0]
    }
}
