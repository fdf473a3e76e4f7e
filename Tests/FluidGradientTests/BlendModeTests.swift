import FluidGradient
import Testing

@Suite struct BlendModeTests {
    /// W3C Compositing Level 1 written out on unpremultiplied values, independently of
    /// the premultiplied forms the engine uses.
    static func w3c(_ mode: BlendMode, source s: SIMD4<Double>, backdrop b: SIMD4<Double>) -> SIMD4<Double> {
        let mixing: Mixing? =
            switch mode {
            case .overlayLinear: Mixing(.linear, frame: .srgb)
            case .overlayOKLab: Mixing(.oklab, frame: .srgb)
            case .overlayOKLabDisplayP3: Mixing(.oklab, frame: .displayP3)
            default: nil
            }
        if let mixing { return mixedOverlay(mixing, source: s, backdrop: b) }
        let alphaS = s.w, alphaB = b.w
        var out = SIMD4<Double>.zero
        for i in 0..<3 {
            let cs = alphaS > 0 ? s[i] / alphaS : 0, cb = alphaB > 0 ? b[i] / alphaB : 0
            let blended: Double
            switch mode {
            case .normal: blended = cs
            case .overlay: blended = cb <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb)
            case .overlayLinear, .overlayOKLab, .overlayOKLabDisplayP3: blended = 0
            }
            let mixed = (1 - alphaB) * cs + alphaB * blended
            out[i] = alphaS * mixed + alphaB * cb * (1 - alphaS)
        }
        out.w = alphaS + alphaB * (1 - alphaS)
        return out
    }

    /// DESIGN section 13's overlay of layers in a mixing space: section 4's formula on the
    /// colours' encoded values, its blend `B` brought back into the mixing space.
    static func mixedOverlay(_ mixing: Mixing, source s: SIMD4<Double>, backdrop b: SIMD4<Double>) -> SIMD4<Double> {
        let alphaS = s.w, alphaB = b.w
        func straight(_ p: SIMD4<Double>) -> SIMD3<Double> { p.w > 0 ? SIMD3(p.x, p.y, p.z) / p.w : .zero }
        let cs = straight(s), cb = straight(b)
        let encodedS = mixing.outOf(cs), encodedB = mixing.outOf(cb)
        var blended = SIMD3<Double>.zero
        for i in 0..<3 {
            let x = encodedS[i], y = encodedB[i]
            blended[i] = y <= 0.5 ? 2 * x * y : 1 - 2 * (1 - x) * (1 - y)
        }
        let mixedBlend = mixing.into(blended)
        let out = alphaS * ((1 - alphaB) * cs + alphaB * mixedBlend) + alphaB * cb * (1 - alphaS)
        return SIMD4(out, alphaS + alphaB * (1 - alphaS))
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
                return SIMD4(
                    generator.nextUnit() * alpha, generator.nextUnit() * alpha, generator.nextUnit() * alpha, alpha)
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
                let meanSource =
                    (mode.composite(source: s1, backdrop: b1) + mode.composite(source: s2, backdrop: b1)) / 2
                if abs(midSource - meanSource).max() > 1e-9 { sourceAffine = false }
                let midBackdrop = mode.composite(source: s1, backdrop: (b1 + b2) / 2)
                let meanBackdrop =
                    (mode.composite(source: s1, backdrop: b1) + mode.composite(source: s1, backdrop: b2)) / 2
                if abs(midBackdrop - meanBackdrop).max() > 1e-9 { backdropAffine = false }
            }
            #expect(mode.isAffineInSource == sourceAffine, "\(mode) source")
            #expect(mode.isAffineInBackdrop == backdropAffine, "\(mode) backdrop")
        }
    }
}
