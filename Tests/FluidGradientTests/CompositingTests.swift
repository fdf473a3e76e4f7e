import FluidGradient
import Testing

/// DESIGN sections 2 and 4: blob coverage and blend modes on exact, hand-computed values.
@Suite struct BlobCoverageTests {
    /// A blob centred in a 200×100 frame with semi-axes (50, 20) px; points along +x at distance d.
    static let width = 200.0, height = 100.0
    static func blob(_ color: RGBA, opacity: Double) -> Blob {
        Blob(color: color, center: SIMD2(0.5, 0.5), radius: SIMD2(0.25, 0.2), opacity: opacity)
    }

    @Test(arguments: [(0.0, 1.0), (0.5, 1.0), (0.9, 1.0), (0.95, 0.5), (1.0, 0.0), (1.2, 0.0)])
    func coverageFollowsTheStops(d: Double, coverage: Double) {
        let blob = Self.blob(.white, opacity: 1)
        let x = 100 + d * 50
        #expect(abs(blob.coverage(x: x, y: 50, width: Self.width, height: Self.height) - coverage) < 1e-12)
        // The same along y, where the semi-axis is 20 px.
        #expect(abs(blob.coverage(x: 100, y: 50 + d * 20, width: Self.width, height: Self.height) - coverage) < 1e-12)
        // And the production path's Float evaluation.
        let placed = PlacedBlob(blob: blob, frame: LayerRect(width: Self.width, height: Self.height), opacity: 1)
        #expect(abs(Double(placed.coverage(at: SIMD2(Float(x), 50))) - coverage) < 1e-5)
    }

    /// The rasteriser's four-at-a-time coverage is the scalar formula bit for bit,
    /// including either side of the stops at d² = 0.81 and 1.
    @Test func coverageOfFourSquaredDistancesMatchesOneAtATime() {
        var values: [Float] = [0, 0.5, 0.9, 0.95, 0.99, 1.5, 100]
        for stop: Float in [0.81, 1] {
            var below = stop, above = stop
            for _ in 0..<3 {
                below = below.nextDown
                above = above.nextUp
                values += [below, above]
            }
            values.append(stop)
        }
        values += (0..<64).map { 0.8 + Float($0) * 0.0035 }
        while values.count % 4 != 0 { values.append(0.85) }
        for start in stride(from: 0, to: values.count, by: 4) {
            let four = SIMD4(values[start], values[start + 1], values[start + 2], values[start + 3])
            let vector = PlacedBlob.coverage(squaredDistances: four)
            for lane in 0..<4 {
                #expect(vector[lane].bitPattern == PlacedBlob.coverage(squaredDistance: four[lane]).bitPattern, "d² = \(four[lane])")
            }
        }
    }

    @Test(arguments: [
        (RGBA(bytes: 255, 0, 0), 1.0, 0.0, SIMD4<Double>(1, 0, 0, 1)),
        (RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), 0.5, 0.95, SIMD4<Double>(0.05, 0.1, 0.15, 0.25)),
        (RGBA(red: 1, green: 1, blue: 1, alpha: 0.5), 0.8, 0.5, SIMD4<Double>(0.4, 0.4, 0.4, 0.4)),
        (RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), 0.7, 1.0, SIMD4<Double>(0, 0, 0, 0)),
    ])
    func premultipliedValueIsColourTimesOpacityTimesCoverage(color: RGBA, opacity: Double, d: Double, expected: SIMD4<Double>) {
        let scene = Scene(base: [Self.blob(color, opacity: opacity)])
        let root = scene.rootLayer(width: Int(Self.width), height: Int(Self.height))
        let value = ReferenceRenderer.value(of: root, x: 100 + d * 50, y: 50)
        for lane in 0..<4 { #expect(abs(value[lane] - expected[lane]) < 1e-12) }
    }

    @Test func zeroRadiusDrawsNothing() {
        for radius in [SIMD2(0.0, 0.3), SIMD2(0.3, 0.0), SIMD2(0.0, 0.0)] {
            let blob = Blob(color: .white, center: SIMD2(0.5, 0.5), radius: radius)
            #expect(blob.normalizedDistance(x: 100, y: 50, width: 200, height: 100) == nil)
            #expect(blob.coverage(x: 100, y: 50, width: 200, height: 100) == 0)
            let placed = PlacedBlob(blob: blob, frame: LayerRect(width: 200, height: 100), opacity: 1)
            #expect(placed.isEmpty)
        }
    }

    @Test func negativeRadiiUseTheirMagnitude() {
        let blob = Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(-0.25, -0.2))
        #expect(abs(blob.coverage(x: 100 + 0.95 * 50, y: 50, width: 200, height: 100) - 0.5) < 1e-12)
    }
}

@Suite struct BlendModeTests {
    /// W3C Compositing Level 1 written out on unpremultiplied values, independently of
    /// the premultiplied forms the engine uses.
    static func w3c(_ mode: BlendMode, source s: SIMD4<Double>, backdrop b: SIMD4<Double>) -> SIMD4<Double> {
        let alphaS = s.w, alphaB = b.w
        var out = SIMD4<Double>.zero
        for i in 0..<3 {
            let cs = alphaS > 0 ? s[i] / alphaS : 0, cb = alphaB > 0 ? b[i] / alphaB : 0
            let blended: Double
            switch mode {
            case .normal: blended = cs
            case .multiply: blended = cs * cb
            case .screen: blended = cs + cb - cs * cb
            case .overlay: blended = cb <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb)
            case .darken: blended = min(cs, cb)
            case .lighten: blended = max(cs, cb)
            case .hardLight: blended = cs <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb)
            case .softLight:
                if cs <= 0.5 {
                    blended = cb - (1 - 2 * cs) * cb * (1 - cb)
                } else {
                    let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
                    blended = cb + (2 * cs - 1) * (d - cb)
                }
            }
            let mixed = (1 - alphaB) * cs + alphaB * blended
            out[i] = alphaS * mixed + alphaB * cb * (1 - alphaS)
        }
        out.w = alphaS + alphaB * (1 - alphaS)
        return out
    }

    /// Overlay, worked by hand from DESIGN section 4.
    @Test func overlayMatchesHandComputedValues() {
        // Opaque: Cb = 0.25 ≤ 0.5 → 2·Cs·Cb; Cb = 0.75 → 1 − 2(1 − Cs)(1 − Cb).
        let backdrop = SIMD4<Double>(0.25, 0.75, 0.5, 1)
        let source = SIMD4<Double>(0.5, 0.5, 0.8, 1)
        let out = BlendMode.overlay.composite(source: source, backdrop: backdrop)
        #expect(abs(out.x - 0.25) < 1e-12)  // 2·0.5·0.25
        #expect(abs(out.y - 0.75) < 1e-12)  // 1 − 2·0.5·0.25
        #expect(abs(out.z - 0.8) < 1e-12)  // 2·0.8·0.5
        #expect(out.w == 1)
        // Half-transparent source over opaque backdrop: co = αs·B + Cb·(1 − αs).
        let half = BlendMode.overlay.composite(source: SIMD4(0.25, 0.25, 0.4, 0.5), backdrop: backdrop)
        #expect(abs(half.x - (0.5 * 0.25 + 0.25 * 0.5)) < 1e-12)
        #expect(abs(half.w - 1) < 1e-12)
    }

    @Test func overlayOnATransparentBackdropShowsTheSourceAsItIs() {
        let source = SIMD4<Double>(0.3, 0.2, 0.1, 0.6)
        #expect(BlendMode.overlay.composite(source: source, backdrop: .zero) == source)
        // And a partly transparent backdrop mixes by αb: Cs' = (1 − αb)·Cs + αb·B.
        let backdrop = SIMD4<Double>(0.1, 0.1, 0.1, 0.5)  // Cb = 0.2
        let out = BlendMode.overlay.composite(source: SIMD4(0.5, 0.5, 0.5, 1), backdrop: backdrop)
        let expected = 0.5 * 0.5 + 0.5 * (2 * 0.5 * 0.2)
        #expect(abs(out.x - expected) < 1e-12)
    }

    @Test(arguments: BlendMode.allCases)
    func everyModeMatchesTheW3CFormula(mode: BlendMode) {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<500 {
            func random() -> SIMD4<Double> {
                let alpha = generator.nextUnit() < 0.1 ? 0 : generator.nextUnit()
                return SIMD4(generator.nextUnit() * alpha, generator.nextUnit() * alpha, generator.nextUnit() * alpha, alpha)
            }
            let s = random(), b = random()
            let expected = Self.w3c(mode, source: s, backdrop: b)
            let actual = mode.composite(source: s, backdrop: b)
            let float = mode.composite(source: SIMD4<Float>(s), backdrop: SIMD4<Float>(b))
            for lane in 0..<4 {
                #expect(abs(actual[lane] - expected[lane]) < 1e-12, "\(mode) lane \(lane)")
                #expect(abs(Double(float[lane]) - expected[lane]) < 1e-5, "\(mode) Float lane \(lane)")
            }
        }
    }

    @Test func affinityFlagsMatchTheFormulas() {
        // A mode is affine in its source when doubling a blend of two sources equals the sum of blends.
        var generator = SplitMix64(seed: 5)
        func opaqueish() -> SIMD4<Double> {
            let a = 0.2 + 0.8 * generator.nextUnit()
            return SIMD4(generator.nextUnit() * a, generator.nextUnit() * a, generator.nextUnit() * a, a)
        }
        for mode in BlendMode.allCases {
            var sourceAffine = true, backdropAffine = true
            for _ in 0..<200 {
                let s1 = opaqueish(), s2 = opaqueish(), b1 = opaqueish(), b2 = opaqueish()
                let midSource = mode.composite(source: (s1 + s2) / 2, backdrop: b1)
                let meanSource = (mode.composite(source: s1, backdrop: b1) + mode.composite(source: s2, backdrop: b1)) / 2
                if abs(midSource - meanSource).max() > 1e-9 { sourceAffine = false }
                let midBackdrop = mode.composite(source: s1, backdrop: (b1 + b2) / 2)
                let meanBackdrop = (mode.composite(source: s1, backdrop: b1) + mode.composite(source: s1, backdrop: b2)) / 2
                if abs(midBackdrop - meanBackdrop).max() > 1e-9 { backdropAffine = false }
            }
            #expect(mode.isAffineInSource == sourceAffine, "\(mode) source")
            #expect(mode.isAffineInBackdrop == backdropAffine, "\(mode) backdrop")
        }
    }
}

private func abs(_ v: SIMD4<Double>) -> SIMD4<Double> { SIMD4(Swift.abs(v.x), Swift.abs(v.y), Swift.abs(v.z), Swift.abs(v.w)) }
