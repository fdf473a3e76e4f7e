/// Finds the average composite over one grid cell, by the cell's ``CellStrategy``.
///
/// The composite's terms under a pattern of fixed coverages are kept in the
/// ``PatternCache``: they depend on the pattern only, which recurs along a rim and
/// from row to row.
struct CellCompositor {
    let scene: SceneView
    let options: RasterOptions

    /// The average composite over `cell`. A pixel-centre cell also adds its effect's
    /// moments to `scratch.moments`.
    @inline(__always)
    func composite(_ cell: GridCell, scratch: RasterScratch) -> SIMD4<Float> {
        let entry = scratch.patterns.entry(for: cell.coverage)
        switch CellStrategy(cell, options: options) {
        case .rimFree:
            return rimFree(cell, entry: entry, scratch: scratch)
        case .chord:
            let samples = sample(cell, entry: entry, scratch: scratch)
            return chord(samples, cell: cell, entry: entry, scratch: scratch)
                ?? everySample(samples, cell: cell, scratch: scratch)
        case .bilinearSurface:
            let samples = sample(cell, entry: entry, scratch: scratch)
            return surface(samples, cell: cell, entry: entry, scratch: scratch)
                ?? everySample(samples, cell: cell, scratch: scratch)
        case .everySample:
            return everySample(sample(cell, entry: entry, scratch: scratch), cell: cell, scratch: scratch)
        case .pixelCentresInPlace:
            return pixelCentresInPlace(sample(cell, entry: entry, scratch: scratch), cell: cell, scratch: scratch)
        case .pixelCentresWithMoments:
            let samples = sample(cell, entry: entry, scratch: scratch)
            return pixelCentresWithMoments(samples, cell: cell, entry: entry, scratch: scratch)
        }
    }

    /// ``CellStrategy/rimFree``: the composite under the cell's fixed coverages.
    @inline(__always)
    private func rimFree(
        _ cell: GridCell, entry: UnsafeMutablePointer<FoldedPattern>, scratch: RasterScratch
    ) -> SIMD4<Float> {
        if case .rimFree(let value) = entry.pointee.terms { return value }
        let coverage = cell.coverage
        let value = scene.composite(stack: scratch.stack) { coverage[$0] }
        entry.pointee.terms = .rimFree(value)
        return value
    }

    /// ``CellStrategy/chord``, or nil where the composite leaves the chord.
    @inline(__always)
    private func chord(
        _ samples: SampledCell, cell: GridCell, entry: UnsafeMutablePointer<FoldedPattern>, scratch: RasterScratch
    ) -> SIMD4<Float>? {
        let sampled = scratch.sampled + samples.first * RasterScratch.maximumSamples
        var sum: Float = 0
        for s in 0..<samples.count { sum += sampled[s] }
        let mean = sum / samples.area
        let terms: ChordTerms
        if case .chord(let known) = entry.pointee.terms {
            terms = known
        } else {
            terms = chordTerms(samples, cell: cell, stack: scratch.stack)
            entry.pointee.terms = .chord(terms)
        }
        guard terms.isLinear else { return nil }
        return terms.atZero + (terms.atOne - terms.atZero) * mean
    }

    /// The composites at the rim's coverage 0 and 1 under the cell's pattern, and whether
    /// the composite is affine in the coverage between them: then the cell's average
    /// composite lies on the chord, at the average coverage. A blend that is not affine
    /// in it (the overlay, whose branch switches where the backdrop's colour crosses ½)
    /// bends the composite there, which takes it off the chord; a bend can pass through
    /// the chord at ½, but not at ¼ and ¾ as well.
    private func chordTerms(
        _ samples: SampledCell, cell: GridCell, stack: UnsafeMutablePointer<SIMD4<Float>>
    ) -> ChordTerms {
        let pattern = PatternComposite(
            scene: scene, program: samples.program, length: samples.length, coverage: cell.coverage, stack: stack,
            first: samples.first)
        let atZero = pattern.value(0), atOne = pattern.value(1)
        func onChord(_ c: Float) -> Bool {
            CellCompositor.isClose(pattern.value(c), atZero + (atOne - atZero) * c)
        }
        let isLinear = scene.affineAfter[samples.first] || (onChord(0.5) && onChord(0.25) && onChord(0.75))
        return ChordTerms(atZero: atZero, atOne: atOne, isLinear: isLinear)
    }

    /// ``CellStrategy/bilinearSurface``, or nil where the composite leaves the surface.
    /// With only blends affine in source and backdrop, the composite is bilinear in the
    /// two coverages c, e: its average over the cell follows from the composites at the
    /// four corners and the averages of c, e and c·e (their covariance included).
    @inline(__always)
    private func surface(
        _ samples: SampledCell, cell: GridCell, entry: UnsafeMutablePointer<FoldedPattern>, scratch: RasterScratch
    ) -> SIMD4<Float>? {
        let terms: SurfaceTerms
        if case .surface(let known) = entry.pointee.terms {
            terms = known
        } else {
            terms = surfaceTerms(samples, cell: cell, stack: scratch.stack)
            entry.pointee.terms = .surface(terms)
        }
        guard terms.isLinear else { return nil }
        let stride = RasterScratch.maximumSamples
        let c = scratch.sampled + samples.first * stride, e = scratch.sampled + samples.second * stride
        var sumC: Float = 0, sumE: Float = 0, sumCE: Float = 0
        for s in 0..<samples.count {
            sumC += c[s]
            sumE += e[s]
            sumCE += c[s] * e[s]
        }
        return terms.origin + (terms.first * sumC + terms.second * sumE + terms.cross * sumCE) / samples.area
    }

    /// The bilinear surface through the composites at the four corners of the two rims'
    /// coverages. A blend that is not affine (an overlay whose branch switches inside
    /// the square of coverages) bends the composite off it. As for one rim, a bend can
    /// come back to the surface at a middle, so the check runs over the square's
    /// quarters: every point of the 5 × 5 lattice but the corners.
    private func surfaceTerms(
        _ samples: SampledCell, cell: GridCell, stack: UnsafeMutablePointer<SIMD4<Float>>
    ) -> SurfaceTerms {
        let pattern = PatternComposite(
            scene: scene, program: samples.program, length: samples.length, coverage: cell.coverage, stack: stack,
            first: samples.first, second: samples.second)
        let origin = pattern.value(0, 0), alongFirst = pattern.value(1, 0), alongSecond = pattern.value(0, 1)
        let a = alongFirst - origin, b = alongSecond - origin
        let d = pattern.value(1, 1) - alongFirst - alongSecond + origin
        func onSurface(_ c: Float, _ e: Float) -> Bool {
            CellCompositor.isClose(pattern.value(c, e), origin + a * c + b * e + d * (c * e))
        }
        let isLinear =
            scene.isMultilinear(samples.program, count: samples.length)
            || CellCompositor.quarterLattice.allSatisfy { onSurface($0.x, $0.y) }
        return SurfaceTerms(origin: origin, first: a, second: b, cross: d, isLinear: isLinear)
    }

    /// ``CellStrategy/everySample``: the composite averaged over the sub-samples.
    @inline(__always)
    private func everySample(_ samples: SampledCell, cell: GridCell, scratch: RasterScratch) -> SIMD4<Float> {
        compositeEverySample(samples, cell: cell, scratch: scratch)
        var total = SIMD4<Float>.zero
        for s in 0..<samples.count { total += scratch.composite(at: s) }
        return total / Float(samples.count)
    }

    /// ``CellStrategy/pixelCentresInPlace``: the pixels, each for its share of the cell.
    @inline(__always)
    private func pixelCentresInPlace(_ samples: SampledCell, cell: GridCell, scratch: RasterScratch) -> SIMD4<Float> {
        compositeEverySample(samples, cell: cell, scratch: scratch)
        let columns = samples.columns
        var total = SIMD4<Float>.zero
        for j in 0..<samples.rows {
            var rowTotal = SIMD4<Float>.zero
            for i in 0..<columns { rowTotal += scratch.composite(at: j * columns + i) * scratch.columnWeights[i] }
            total += rowTotal * scratch.rowWeights[j]
        }
        return total / samples.area
    }

    /// ``CellStrategy/pixelCentresWithMoments``. The varying blobs count per pixel,
    /// while what lies under them stays the cell's own: the cell without the varying
    /// blobs plus their effect summed over the pixels, each for its share of the cell.
    /// That effect is narrower than the cell, so where it lies in the cell and how far
    /// it spreads matter: its first and second moments about the cell's node, in cells,
    /// go with it into `scratch.moments`.
    @inline(__always)
    private func pixelCentresWithMoments(
        _ samples: SampledCell, cell: GridCell, entry: UnsafeMutablePointer<FoldedPattern>, scratch: RasterScratch
    ) -> SIMD4<Float> {
        compositeEverySample(samples, cell: cell, scratch: scratch)
        let without: SIMD4<Float>
        if case .withoutRims(let known) = entry.pointee.terms {
            without = known
        } else {
            let coverage = cell.coverage
            without = scene.composite(samples.program, count: samples.length, stack: scratch.stack) {
                coverage[$0] < 0 ? 0 : coverage[$0]
            }
            entry.pointee.terms = .withoutRims(without)
        }
        let columns = samples.columns
        var effect = SIMD4<Float>.zero, moment = CellMoment(index: cell.index)
        for j in 0..<samples.rows {
            var rowEffect = SIMD4<Float>.zero, rowMoment = SIMD4<Float>.zero, rowSecond = SIMD4<Float>.zero
            for i in 0..<columns {
                let offset = scratch.columnOffsets[i]
                let pixel = (scratch.composite(at: j * columns + i) - without) * scratch.columnWeights[i]
                rowEffect += pixel
                rowMoment += pixel * offset
                rowSecond += pixel * (offset * offset)
            }
            let weight = scratch.rowWeights[j], offset = scratch.rowOffsets[j]
            effect += rowEffect * weight
            moment.alongX += rowMoment * weight
            moment.spreadX += rowSecond * weight
            moment.alongY += rowEffect * (weight * offset)
            moment.spreadY += rowEffect * (weight * offset * offset)
        }
        scratch.moments.append(moment.normalized(effect: effect, area: samples.area))
        return without + effect / samples.area
    }

    /// Composites every sample of the cell into the bottom level of `scratch.wideStack`
    /// (``RasterScratch/composite(at:)`` reads it).
    @inline(__always)
    private func compositeEverySample(_ samples: SampledCell, cell: GridCell, scratch: RasterScratch) {
        assert(samples.count <= RasterScratch.maximumSamples, "more samples than a level of the wide stack holds")
        assert(
            scene.depth * 4 * RasterScratch.planeStride <= scratch.wideStackCapacity, "a wide stack too shallow")
        scene.compositeSamples(
            samples.program, count: samples.length, samples: samples.count, coverage: cell.coverage,
            sampled: scratch.sampled, blobStride: RasterScratch.maximumSamples, stack: scratch.wideStack,
            planeStride: RasterScratch.planeStride)
    }
}

extension CellCompositor {
    /// Folds the cell's pattern and samples each rim blob's coverage into
    /// `scratch.sampled`: at `n × n` sub-samples, or at the pixels the cell's spans cut.
    @inline(__always)
    func sample(
        _ cell: GridCell, entry: UnsafeMutablePointer<FoldedPattern>, scratch: RasterScratch
    ) -> SampledCell {
        entry.pointee.fold(scene, coverage: cell.coverage)
        let columns: Int, rows: Int, area: Float
        if WorkingGrid.isPixelCentres(cell.subsamples) {
            columns = cell.column.pixels(
                into: scratch.xs, weights: scratch.columnWeights, offsets: scratch.columnOffsets)
            rows = cell.row.pixels(into: scratch.ys, weights: scratch.rowWeights, offsets: scratch.rowOffsets)
            area = (cell.column.upper - cell.column.lower) * (cell.row.upper - cell.row.lower)
        } else {
            columns = Int(cell.subsamples)
            rows = columns
            cell.column.samples(columns, into: scratch.xs)
            cell.row.samples(rows, into: scratch.ys)
            area = Float(columns) * Float(columns)
        }
        assert(columns <= WorkingGrid.maximumCentres && rows <= WorkingGrid.maximumCentres, "too many samples")
        var first = -1, second = -1
        for blob in 0...cell.lastPresent where cell.coverage[blob] < 0 {
            if first < 0 { first = blob } else { second = blob }
            sampleCoverage(of: blob, columns: columns, rows: rows, scratch: scratch)
        }
        return SampledCell(
            program: UnsafePointer(entry.pointee.program), length: entry.pointee.programLength, columns: columns,
            rows: rows, area: area, first: first, second: second)
    }

    /// Blob `blob`'s coverage at each of the cell's `columns × rows` samples, into its
    /// `maximumSamples` floats of `scratch.sampled`. `d²` is a term in x plus a term in y:
    /// each is computed once per column or row of samples.
    @inline(__always)
    private func sampleCoverage(of blob: Int, columns: Int, rows: Int, scratch: RasterScratch) {
        let placed = scene.blobs[blob], out = scratch.sampled + blob * RasterScratch.maximumSamples
        let alongX = scratch.squaredX
        // The loops below go four samples at a time, past a row's end by up to `spill`.
        assert(columns + RasterScratch.spill <= scratch.squaredXCapacity, "squaredX without room for the spill")
        assert(
            blob * RasterScratch.maximumSamples + columns * rows + RasterScratch.spill <= scratch.sampledCapacity,
            "sampled without room for the last row's spill")
        for i in 0..<columns {
            let q = (scratch.xs[i] - placed.center.x) * placed.inverseSemiAxes.x
            alongX[i] = q * q
        }
        for j in 0..<rows {
            let q = (scratch.ys[j] - placed.center.y) * placed.inverseSemiAxes.y
            let row = out + j * columns, y2 = q * q
            guard y2 < 1 else {
                row.update(repeating: 0, count: columns)
                continue
            }
            // What spills into the next row is overwritten with it; past the last row it
            // lands in this blob's unused samples or in a later blob's, which is sampled
            // after this one (or not read), or in the spill room at the end.
            var i = 0
            while i < columns {
                let d2 = UnsafeRawPointer(alongX + i).loadUnaligned(as: SIMD4<Float>.self) + y2
                UnsafeMutableRawPointer(row + i).storeBytes(
                    of: PlacedBlob.coverage(squaredDistances: d2), as: SIMD4<Float>.self)
                i += 4
            }
        }
    }
}

extension CellCompositor {
    /// The points `(i/4, j/4)` of the unit square but its corners, middles first (a bend
    /// shows there most often, and the check stops at the first point off the surface).
    static let quarterLattice: [SIMD2<Float>] = {
        let all = (0...4).flatMap { i in (0...4).map { j in SIMD2<Float>(Float(i), Float(j)) / 4 } }
        let inner = all.filter { $0 != SIMD2(0, 0) && $0 != SIMD2(0, 1) && $0 != SIMD2(1, 0) && $0 != SIMD2(1, 1) }
        return inner.sorted { (abs($0.x - 0.5) + abs($0.y - 0.5)) < (abs($1.x - 0.5) + abs($1.y - 0.5)) }
    }()

    /// Whether `a` and `b` agree to 10⁻⁴ in every component: far below a level, far above rounding.
    @inline(__always)
    static func isClose(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        let d = (a - b) * (a - b)
        return max(max(d.x, d.y), max(d.z, d.w)) <= 1e-8
    }
}

/// A cell's coverage pattern with its one or two rim blobs set to chosen coverages.
private struct PatternComposite {
    let scene: SceneView
    let program: UnsafePointer<CompiledScene.ReducedOperation>
    let length: Int
    let coverage: UnsafePointer<Float>
    let stack: UnsafeMutablePointer<SIMD4<Float>>
    let first: Int
    var second = -1

    /// The composite with the first rim blob at coverage `c` and the second at `e`.
    @inline(__always)
    func value(_ c: Float, _ e: Float = 0) -> SIMD4<Float> {
        let first = first, second = second, coverage = coverage
        return scene.composite(program, count: length, stack: stack) {
            $0 == first ? c : $0 == second ? e : coverage[$0]
        }
    }
}
