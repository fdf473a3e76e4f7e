import CVectorMath

/// A scene as a flat stack program over placed blobs, so the production path can
/// composite one sample with a few array reads and no recursion. DESIGN section 1's
/// steps 2 and 3 are the program
///
///     blob 0 … blob n − 1        the base blobs, source-over onto the bottom accumulator
///     begin                      a transparent accumulator for the highlight layer
///     blob n … blob n + m − 1    the highlight blobs, source-over onto it
///     end(overlay)               the highlight layer overlaid onto the base layer
///
/// without the last three lines when there are no highlights. The program depends only
/// on how many blobs each layer has, so a renderer compiles it once and each frame
/// places the blobs again (``update(_:width:height:)``).
struct CompiledScene {
    /// One step of a program. The scene's own program has no `affine` steps; a program
    /// specialised to a cell folds its fixed blobs into them (see
    /// ``SceneView/reduce(coverage:into:)``).
    enum ReducedOperation {
        /// Push a transparent accumulator for a layer.
        case begin
        /// `top = top·scale + offset`: a run of blobs of fixed coverage.
        case affine(scale: Float, offset: SIMD4<Float>)
        /// Composite blob `index`, scaled by its coverage, source-over onto the top accumulator.
        case blob(index: Int)
        /// Pop the top accumulator and blend it onto the next with `mode`.
        case end(mode: BlendMode)
    }

    /// The base blobs, then the highlight blobs, placed in the frame.
    private(set) var blobs: [PlacedBlob]
    /// The deepest the accumulator stack gets, including the bottom one.
    private(set) var depth: Int
    /// `affineAfter[b]`: whether every blend after blob `b` is affine in `b`'s coverage
    /// (others held fixed). Then averaging that one coverage over an area gives the
    /// area's average composite. The highlight layer's overlay is not affine in its
    /// backdrop, so it is false for base blobs under highlights.
    private(set) var affineAfter: [Bool] = []
    /// The scene as a program in which every blob varies.
    private(set) var program: [ReducedOperation]
    /// The base blobs the program composites; the rest are highlights.
    private let baseCount: Int
    /// The space the blobs' colours are in and the blends composite in.
    let mixing: Mixing

    /// Compiles `scene` for a `width × height` frame, its colours and blends in
    /// `mixing`'s space.
    init(_ scene: Scene, width: Int, height: Int, mixing: Mixing = Mixing(.srgb, frame: .srgb)) {
        self.mixing = mixing
        baseCount = scene.base.count
        blobs = (scene.base + scene.highlights).map {
            PlacedBlob(blob: $0, width: width, height: height, mixing: mixing)
        }
        program = (0..<scene.base.count).map { ReducedOperation.blob(index: $0) }
        depth = 1
        if !scene.highlights.isEmpty {
            program.append(.begin)
            program += (scene.base.count..<blobs.count).map { ReducedOperation.blob(index: $0) }
            program.append(.end(mode: mixing.blendMode(.overlay)))
            depth = 2
        }
        affineAfter = blobs.indices.map(isAffineAfter)
    }

    /// Places `scene`'s blobs for a `width × height` frame, keeping the program when the
    /// scene has as many base and highlight blobs as the compiled one (an animation's
    /// frames do), compiling it again otherwise.
    mutating func update(_ scene: Scene, width: Int, height: Int) {
        guard scene.base.count == baseCount, scene.highlights.count == blobs.count - baseCount else {
            self = CompiledScene(scene, width: width, height: height, mixing: mixing)
            return
        }
        blobs.withUnsafeMutableBufferPointer { blobs in
            for (index, blob) in scene.base.enumerated() {
                blobs[index] = PlacedBlob(blob: blob, width: width, height: height, mixing: mixing)
            }
            for (index, blob) in scene.highlights.enumerated() {
                blobs[baseCount + index] = PlacedBlob(blob: blob, width: width, height: height, mixing: mixing)
            }
        }
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
            case .blob(let index):
                if index == b { effect = level }
            case .end(let mode):
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
}
