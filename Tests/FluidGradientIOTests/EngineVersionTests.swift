import FluidGradient
import FluidGradientIO
import Testing

/// `Preset.engineVersion` names the pixels: a service keys its cache on it, so the pixels
/// of every built-in preset are pinned to it here. A change to any of them fails this test
/// until the version changes too, with the new digest beside it.
@Suite struct EngineVersionTests {
    /// FNV-1a (64 bits) of every built-in preset's frames at 2.5 s, 96x54, at 8 and 16
    /// bits, opaque and over nothing.
    static func digest() throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for name in Preset.builtInNames {
            var preset = try Preset(builtIn: name)
            for transparent in [false, true] {
                if transparent { preset.background = .color(.clear) }
                for depth in [Frame.Depth.eight, .sixteen] {
                    for byte in try preset.frame(at: 2.5, width: 96, height: 54, depth: depth).bytes {
                        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                    }
                }
            }
        }
        return hash
    }

    @Test func theVersionPinsThePixels() throws {
        // 1.0.0's digest covers the fourteen built-in presets: print and velvet (grain)
        // joined the twelve without changing a pixel of theirs (GoldenTests, exact).
        let pinned: [String: UInt64] = ["1.0.0": 0xe5ae_8fa8_a7c3_3d00]
        let digest = try Self.digest()
        #expect(
            pinned[Preset.engineVersion] == digest,
            "the pixels changed (digest 0x\(String(digest, radix: 16))): raise Preset.engineVersion and pin the digest")
    }
}
