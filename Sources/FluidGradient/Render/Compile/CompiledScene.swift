import CVectorMath

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
    /// The space the blobs' colours are in and the blends composite in.
    let mixing: Mixing

    /// `root` compiled with its colours and blends in `mixing`'s space.
    init(root: Layer, mixing: Mixing = Mixing(.srgb, frame: .srgb)) {
        self.mixing = mixing
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
            blobs.append(PlacedBlob(blob: blob, frame: layer.frame, opacity: layer.opacity, mixing: mixing))
            program.append(.blob(index: blobs.count - 1, mode: mixing.blendMode(layer.blendMode)))
            return
        }
        depth = max(depth, level + 1)
        program.append(.begin)
        if case .blob(let blob) = layer.content {
            blobs.append(PlacedBlob(blob: blob, frame: layer.frame, opacity: 1, mixing: mixing))
            program.append(.blob(index: blobs.count - 1, mode: .normal))
        }
        for sublayer in layer.sublayers {
            compile(sublayer, level: level + 1)
        }
        program.append(.end(mode: mixing.blendMode(layer.blendMode), opacity: Float(layer.opacity)))
    }
}
