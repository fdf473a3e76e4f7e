import FluidGradient
import Testing

/// `frame(at:width:height:keepingLook:…)`: a preset shown at another size as it looks at its
/// own, the point scale multiplied by the ratio of the shorter sides, as an encode size does;
/// against the renderer used directly, which holds no point scale to bounds.
@Suite struct KeepingLookTests {
    /// What the renderer draws for `preset` as it stands, unchecked: the front door's pixels
    /// (same dither pattern, depth and layout) without its checks.
    static func unchecked(_ preset: Preset, at time: Double, depth: Frame.Depth = .eight, dither: Bool = true)
        -> [UInt8]
    {
        var buffer = PixelBuffer(
            width: preset.width, height: preset.height, format: depth == .sixteen ? .rgba64le : .rgba)
        FrameRenderer(spec: preset.frameSpec).render(
            Animator(preset: preset).scene(at: time), frameIndex: preset.ditherIndex(at: time), dither: dither,
            into: &buffer)
        return buffer.bytes
    }

    /// `preset` at `width`×`height` with the point scale `pointScale`.
    static func resized(_ preset: Preset, _ width: Int, _ height: Int, pointScale: Double) -> Preset {
        var resized = preset
        (resized.width, resized.height, resized.pointScale) = (width, height, pointScale)
        return resized
    }

    static func preset(width: Int, height: Int, pointScale: Double = 1) throws -> Preset {
        var preset = try PresetFixtures.builtIn("aurora")
        (preset.width, preset.height, preset.pointScale) = (width, height, pointScale)
        return preset
    }

    @Test(arguments: [Frame.Depth.eight, .sixteen])
    func atItsOwnSizeTheFrameIsTheSame(depth: Frame.Depth) throws {
        // 0.46 × 320 / 320 is not 0.46 in binary: the own size must not be scaled at all.
        #expect(0.46 * 320.0 / 320.0 != 0.46)
        let preset = try Self.preset(width: 320, height: 180, pointScale: 0.46)
        let plain = try preset.frame(at: 1.3, depth: depth).bytes
        #expect(try preset.frame(at: 1.3, keepingLook: true, depth: depth).bytes == plain)
        #expect(try preset.frame(at: 1.3, width: 320, height: 180, keepingLook: true, depth: depth).bytes == plain)
    }

    /// A 1920x1080 design previewed at 640x360: point scale 1/3, still inside its bounds,
    /// so the front door without `keepingLook` gives the same frame for the scaled preset.
    @Test func aThirdOfTheSizeHasAThirdOfThePointScale() throws {
        let preset = try Self.preset(width: 1920, height: 1080)
        let shown = try preset.frame(at: 2.5, width: 640, height: 360, keepingLook: true).bytes
        let third = Self.resized(preset, 640, 360, pointScale: 1.0 / 3)
        #expect(shown == Self.unchecked(third, at: 2.5))
        #expect(shown == (try third.frame(at: 2.5).bytes))
        #expect(shown != (try preset.frame(at: 2.5, width: 640, height: 360).bytes))
    }

    /// At an encode size, the encode path's preset and frame: the factor is the ratio of the
    /// widths, which here rounds otherwise than that of the shorter sides.
    @Test func atAnEncodeSizeTheFrameIsTheEncodedOne() throws {
        let preset = try Self.preset(width: 320, height: 180, pointScale: 0.3)
        #expect(0.3 * 64.0 / 320.0 != 0.3 * 36.0 / 180.0)
        let encoded = preset.rendered(at: EncodeSize(width: 64, height: 36, reason: .requested))
        #expect(encoded == Self.resized(preset, 64, 36, pointScale: 0.3 * 64.0 / 320.0))
        #expect(preset.lookingAlike(width: 64, height: 36) == encoded)
        let shown = try preset.frame(at: 3.1, width: 64, height: 36, keepingLook: true, depth: .sixteen, dither: false)
        #expect(shown.bytes == Self.unchecked(encoded, at: 3.1, depth: .sixteen, dither: false))
    }

    /// Point scales 1/6 and 1/12, below the 0.25 a preset may have: rendered, not refused.
    @Test(arguments: [(3840, 2160, 640, 360, 1.0 / 6), (1920, 1080, 160, 90, 1.0 / 12)])
    func aMuchSmallerSizeGoesBelowTheBound(size: (Int, Int, Int, Int, Double)) throws {
        let (width, height, shownWidth, shownHeight, pointScale) = size
        let preset = try Self.preset(width: width, height: height)
        let shown = try preset.frame(at: 0.8, width: shownWidth, height: shownHeight, keepingLook: true).bytes
        let scaled = Self.resized(preset, shownWidth, shownHeight, pointScale: pointScale)
        #expect(shown == Self.unchecked(scaled, at: 0.8))
        #expect(throws: PresetError.self) { _ = try scaled.frame(at: 0.8) }
    }

    /// The preset is checked at its own size: its own point scale, even one the new size
    /// would scale into bounds, its own size, and the new size.
    @Test func aPresetOrSizeOutOfBoundsStillThrows() throws {
        for pointScale in [0.2, 9, .nan] {
            let preset = try Self.preset(width: 1920, height: 1080, pointScale: pointScale)
            #expect(throws: PresetError.self) {
                _ = try preset.frame(at: 0, width: 640, height: 360, keepingLook: true)
            }
        }
        var noWidth = try Self.preset(width: 1920, height: 1080)
        noWidth.width = 0
        #expect(throws: PresetError.self) { _ = try noWidth.frame(at: 0, width: 64, height: 36, keepingLook: true) }
        let preset = try Self.preset(width: 1920, height: 1080)
        for (width, height) in [(0, 90), (160, -1), (16_385, 16), (8193, 8192)] {
            #expect(throws: PresetError.self) {
                _ = try preset.frame(at: 0, width: width, height: height, keepingLook: true)
            }
        }
    }

    /// Random presets and sizes: of the same aspect ratio, the encode path's preset
    /// (`rendered(at:)`, bit for bit); of another, the point scale times the ratio of the
    /// shorter sides, which may pass 8 as well as go below 0.25.
    @Test(arguments: 0..<12)
    func randomSizesMatchTheRenderer(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x4B45_4550 + seed)
        func side(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        let (width, height) = (side(16...320), side(16...320))
        var preset = try Self.preset(width: width, height: height, pointScale: random.next(in: 0.25...8))
        preset.seed = random.next() % 1000
        let factors = EncodeSize.factors(width: width, height: height)
        let expected: Preset
        if seed % 2 == 0, !factors.isEmpty {
            let k = factors[Int(random.next() % UInt64(factors.count))]
            let scale = preset.pointScale * Double(width / k) / Double(width)
            expected = Self.resized(preset, width / k, height / k, pointScale: scale)
            #expect(
                preset.rendered(at: EncodeSize(width: width / k, height: height / k, reason: .requested)) == expected)
        } else {
            var (w, h) = (side(8...320), side(8...320))
            if w * height == h * width { w += 1 }
            let scale = preset.pointScale * Double(min(w, h)) / Double(min(width, height))
            expected = Self.resized(preset, w, h, pointScale: scale)
        }
        let (time, depth) = (random.next(in: 0...10), random.next() % 2 == 0 ? Frame.Depth.eight : .sixteen)
        let dither = random.next() % 2 == 0
        let shown = try preset.frame(
            at: time, width: expected.width, height: expected.height, keepingLook: true, depth: depth, dither: dither)
        #expect(
            shown.bytes == Self.unchecked(expected, at: time, depth: depth, dither: dither),
            "\(width)x\(height) at \(expected.width)x\(expected.height), point scale \(expected.pointScale)")
    }
}
