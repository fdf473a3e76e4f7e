import Foundation

/// What a coverage pattern's composite comes to, once computed; each strategy of
/// ``CellCompositor`` keeps its own kind.
enum PatternTerms {
    /// Not computed yet for this pattern.
    case unknown
    /// No rim crosses the cell: the cell's composite.
    case rimFree(SIMD4<Float>)
    /// One rim: the chord of its coverage (``CellStrategy/chord``).
    case chord(ChordTerms)
    /// Two rims: the bilinear surface of their coverages (``CellStrategy/bilinearSurface``).
    case surface(SurfaceTerms)
    /// Pixel centres with moments: the composite with every rim blob absent, which the
    /// rim blobs' effect is measured from (``CellStrategy/pixelCentresWithMoments``).
    case withoutRims(SIMD4<Float>)
}

/// A one-rim pattern's composite `C(c)` at the rim's coverage 0 and 1, and whether `C`
/// follows the chord between them.
struct ChordTerms {
    var atZero: SIMD4<Float>
    var atOne: SIMD4<Float>
    var isLinear: Bool
}

/// A two-rim pattern's bilinear surface through its four corners,
/// `origin + first·c + second·e + cross·c·e` for the first and second rim's coverages
/// `c` and `e`, and whether the composite follows it.
struct SurfaceTerms {
    var origin: SIMD4<Float>
    var first: SIMD4<Float>
    var second: SIMD4<Float>
    var cross: SIMD4<Float>
    var isLinear: Bool
}

/// A coverage pattern's program with its fixed blobs folded away and, once computed,
/// the composite's terms under it.
struct FoldedPattern {
    /// Room for the folded program: the scene's program and one more operation.
    let program: UnsafeMutablePointer<CompiledScene.ReducedOperation>
    let programCapacity: Int
    /// Whether `program` is folded yet (cells no rim crosses never need it).
    var isFolded = false
    var programLength = 0
    var terms = PatternTerms.unknown

    /// Folds the program for `coverage`, the pattern this entry holds, unless done.
    @inline(__always)
    mutating func fold(_ scene: SceneView, coverage: UnsafePointer<Float>) {
        guard !isFolded else { return }
        // Folding only removes or merges operations.
        assert(scene.program.count <= programCapacity, "a folded program longer than its room")
        programLength = scene.reduce(coverage: coverage, into: program)
        isFolded = true
    }
}

/// A direct-mapped cache of ``FoldedPattern``s keyed by the cell's coverages. An entry
/// is a pure function of its pattern, so what the cache holds never changes a result.
///
/// Neighbouring cells along a rim, and rows after rows, share their pattern: with this
/// cache per chunk of rows, folding and the pattern's composites fell from about 0.15 to
/// 0.04 ms a frame on one core (BENCHMARKS.md, third session).
final class PatternCache {
    static let slotCount = 128
    /// A slot is the pattern hash's top 7 bits.
    private static let slotShift: UInt64 = 57
    /// Coverages per pattern: the scene's blobs, at least one (as ``RasterRow`` holds them).
    private let blobCount: Int
    /// Each slot's coverage pattern (`blobCount` values). An unused slot holds zeros
    /// and an empty entry, which is what a slot refilled with that pattern would hold.
    private let patterns: UnsafeMutablePointer<Float>
    private let entries: UnsafeMutablePointer<FoldedPattern>
    private let programs: UnsafeMutablePointer<CompiledScene.ReducedOperation>

    /// Operations a folded program has room for: the scene's program and one more.
    private let programCapacity: Int

    /// - Parameter scene: The scene whose patterns the cache holds.
    init(scene: SceneView) {
        assert(Self.slotCount == 1 << (64 - Self.slotShift), "the hash picks a slot by its top bits")
        blobCount = max(scene.blobs.count, 1)
        let capacity = scene.program.count + 1
        programCapacity = capacity
        patterns = .allocate(capacity: Self.slotCount * blobCount)
        patterns.initialize(repeating: 0, count: Self.slotCount * blobCount)
        programs = .allocate(capacity: Self.slotCount * capacity)
        entries = .allocate(capacity: Self.slotCount)
        for slot in 0..<Self.slotCount {
            let program = programs + slot * capacity
            (entries + slot).initialize(to: FoldedPattern(program: program, programCapacity: capacity))
        }
    }

    /// Whether the cache can hold `scene`'s patterns: as many coverages, and room for
    /// its program.
    func fits(_ scene: SceneView) -> Bool {
        blobCount == max(scene.blobs.count, 1) && programCapacity == scene.program.count + 1
    }

    /// Empties every slot, as a new cache's are: for another frame, whose blobs have moved.
    func removeAll() {
        patterns.update(repeating: 0, count: Self.slotCount * blobCount)
        for slot in 0..<Self.slotCount {
            entries[slot].isFolded = false
            entries[slot].terms = .unknown
        }
    }

    /// The entry for `coverage`'s pattern, emptied first if the slot held another.
    @inline(__always)
    func entry(for coverage: UnsafePointer<Float>) -> UnsafeMutablePointer<FoldedPattern> {
        // Four chains of multiplications side by side: one chain waited on each
        // multiplication in turn, about a third of the cell's time at 48 blobs.
        var hashes = SIMD4<UInt64>(0, 1, 2, 3)
        var blob = 0
        while blob + 4 <= blobCount {
            let bits = SIMD4<UInt64>(
                UInt64(coverage[blob].bitPattern), UInt64(coverage[blob + 1].bitPattern),
                UInt64(coverage[blob + 2].bitPattern), UInt64(coverage[blob + 3].bitPattern))
            hashes = (hashes ^ bits) &* 0x9E37_79B9_7F4A_7C15
            blob += 4
        }
        var hash = (hashes[0] ^ hashes[1] &* 3 ^ hashes[2] &* 5 ^ hashes[3] &* 7) &* 0x9E37_79B9_7F4A_7C15
        while blob < blobCount {
            hash = (hash ^ UInt64(coverage[blob].bitPattern)) &* 0x9E37_79B9_7F4A_7C15
            blob += 1
        }
        let slot = Int(hash >> Self.slotShift)
        let pattern = patterns + slot * blobCount, entry = entries + slot
        if memcmp(pattern, coverage, blobCount * MemoryLayout<Float>.size) != 0 {
            pattern.update(from: coverage, count: blobCount)
            entry.pointee.isFolded = false
            entry.pointee.terms = .unknown
        }
        return entry
    }

    deinit {
        patterns.deallocate()
        programs.deallocate()
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
    }
}
