import FluidGradient
import Testing

/// The banding index (CAMBI): each step against a slow, obvious second road on seeded
/// random planes, and whole frames whose answer is known.
@Suite struct BandingIndexTests {
    /// A `width` × `height` plane of codes drawn from `codes`, in runs so that plateaus form.
    static func plane(width: Int, height: Int, codes: [UInt16], seed: UInt64) -> LumaPlane {
        var generator = SplitMix64(seed: seed)
        var values: [UInt16] = []
        var current = codes[0]
        for _ in 0..<(width * height) {
            if generator.nextUnit() < 0.3 { current = codes[Int(generator.next() % UInt64(codes.count))] }
            values.append(current)
        }
        return LumaPlane(width: width, height: height, codes: values)
    }

    /// The steps visible on BT.1886 at 300 nits, as libvmaf's table bisects them; the same
    /// numbers came from an independent numpy version of its formula.
    @Test func visibleStepsFollowTheDisplaysContrastThreshold() {
        #expect(BandingIndex.visibleUpTo == [178, 305, 432, 559])
        #expect(BandingIndex.luminance(64) == 0.01 || abs(BandingIndex.luminance(64) - 0.01) < 1e-9)
        #expect(abs(BandingIndex.luminance(940) - 300) < 1e-9)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func contrastValuesAreWhatCountingEachWindowGives(seed: UInt64) {
        let plane = Self.plane(width: 23, height: 17, codes: [100, 101, 102, 104, 300, 301], seed: seed)
        var generator = SplitMix64(seed: seed + 10)
        let mask = (0..<(23 * 17)).map { _ in generator.nextUnit() < 0.8 }
        let radius = 3
        let fast = BandingContrast.values(of: plane, mask: mask, radius: radius, visibleUpTo: BandingIndex.visibleUpTo)
        for y in 0..<17 {
            for x in 0..<23 {
                var counts: [Int: Int] = [:]
                for v in max(y - radius, 0)...min(y + radius, 16) {
                    for u in max(x - radius, 0)...min(x + radius, 22) where mask[v * 23 + u] {
                        counts[Int(plane.codes[v * 23 + u]), default: 0] += 1
                    }
                }
                let code = Int(plane.codes[y * 23 + x])
                var expected: Float = 0
                if mask[y * 23 + x] {
                    let p0 = Float(counts[code] ?? 0)
                    for step in 1...4 where code <= BandingIndex.visibleUpTo[step - 1] {
                        let other = Float(max(counts[code + step] ?? 0, counts[code - step] ?? 0))
                        if other > 0 { expected = max(expected, Float(step) * p0 * other / (p0 + other)) }
                    }
                }
                #expect(fast[y * 23 + x] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test(arguments: [UInt64(4), 5])
    func theMaskAndTheModeFilterAreWhatTheirDefinitionsGive(seed: UInt64) {
        let plane = Self.plane(width: 19, height: 13, codes: [200, 201, 203], seed: seed)
        let (width, height) = (19, 13)
        func code(_ x: Int, _ y: Int) -> UInt16 { plane.codes[y * width + x] }
        let threshold = 20
        let mask = plane.smoothMask(threshold: threshold)
        let filtered = plane.modeFiltered()
        for y in 0..<height {
            for x in 0..<width {
                var flat = 0
                for v in (y - 3)...(y + 3) where v >= 0 && v < height {
                    for u in (x - 3)...(x + 3) where u >= 0 && u < width {
                        let down = v == height - 1 || code(u, v + 1) == code(u, v)
                        let right = u == width - 1 || code(u + 1, v) == code(u, v)
                        if down && right { flat += 1 }
                    }
                }
                #expect(mask[y * width + x] == (flat > threshold), "mask at (\(x), \(y))")
                var counts: [UInt16: Int] = [:]
                for v in (y - 1)...(y + 1) {
                    for u in (x - 1)...(x + 1) {
                        counts[code(min(max(u, 0), width - 1), min(max(v, 0), height - 1)), default: 0] += 1
                    }
                }
                let most = counts.values.max()!
                let mode = counts.filter { $0.value == most }.keys.min()!
                #expect(filtered.codes[y * width + x] == mode, "mode at (\(x), \(y))")
            }
        }
    }

    @Test(arguments: [UInt64(6), 7, 8])
    func theMeanOfTheLargestIsWhatSortingGives(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var values = (0..<1001).map { _ in generator.nextUnit() < 0.3 ? 0 : Float(generator.nextUnit() * 50) }
        let sorted = values.sorted(by: >)
        for share in [0.01, 0.6, 1.0] {
            let count = max(Int(share * 1001), 1)
            let expected = sorted.prefix(count).reduce(0.0) { $0 + Double($1) } / Double(count)
            #expect(abs(BandingIndex.meanOfLargest(&values, share: share) - expected) < 1e-9 * max(expected, 1))
        }
    }

    /// A plane of one code has nothing to band; two wide plateaus a code apart band in the
    /// dark, where that step is visible, and not in the light, where it is not.
    @Test func plateausBandOnlyWhereTheirStepIsVisible() {
        func plane(_ left: UInt16, _ right: UInt16) -> LumaPlane {
            LumaPlane(width: 480, height: 270, codes: (0..<(480 * 270)).map { $0 % 480 < 240 ? left : right })
        }
        #expect(BandingIndex.of(plane(100, 100)) == 0)
        #expect(BandingIndex.of(plane(100, 104)) > 0.5)
        #expect(BandingIndex.of(plane(100, 101)) > 0)
        #expect(BandingIndex.of(plane(800, 804)) == 0)
        #expect(BandingDifference(expected: 0, actual: BandingIndex.of(plane(100, 104))).added > 0.5)
    }
}
