import FluidGradient
import Testing

@Suite struct SplitMix64Tests {
    /// The first outputs for seed 0 from the published SplitMix64 reference.
    @Test func matchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func unitValuesStayInRange() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let u = generator.nextUnit()
            #expect(u >= 0 && u < 1)
        }
        var ranged = SplitMix64(seed: 7)
        let value = ranged.next(in: 0.15...0.75)
        #expect(value >= 0.15 && value <= 0.75)
    }

    @Test func streamsAreReproducibleAndDistinct() {
        var a = SplitMix64(seed: 7, stream: 0, 3, 1)
        var b = SplitMix64(seed: 7, stream: 0, 3, 1)
        var c = SplitMix64(seed: 7, stream: 0, 3, 2)
        var d = SplitMix64(seed: 7, stream: 1, 3, 1)
        let first = a.next()
        #expect(first == b.next())
        #expect(first != c.next())
        #expect(first != d.next())
    }

    @Test func rangesSnapToTheirStep() {
        let range = ParameterRange(0.2, 0.6, step: 0.1)
        #expect(abs(range.value(at: 0.26) - 0.3) < 1e-12)
        #expect(range.value(at: 0.999) <= 0.6)
        #expect(range.value(at: 0) == 0.2)
        #expect(ParameterRange(0.2, 0.6).value(at: 0.5) == 0.4)
        #expect(range.clamp(0.9) == 0.6)
        #expect(range.description == "0.2...0.6/0.1")
    }
}
