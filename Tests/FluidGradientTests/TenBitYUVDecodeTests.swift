import FluidGradient
import Testing

/// The exact 10-bit 4:2:0 decode that measures HEVC, AV1 and 10-bit VP9 files.
@Suite struct TenBitYUVDecodeTests {
    /// Codes with known colours: black and white at the range's ends, a mid grey, and a
    /// pure red whose chroma is known exactly.
    @Test func knownCodesGiveKnownColours() {
        func decoded(_ y: UInt16, _ cb: UInt16, _ cr: UInt16) -> SIMD4<Float> {
            let frame = FrameSamples(yuv420p10: [y, y, y, y, cb, cr], width: 2, height: 2)
            return SIMD4(frame.values[0..<4])
        }
        #expect(decoded(64, 512, 512) == SIMD4(0, 0, 0, 1))
        #expect(decoded(940, 512, 512) == SIMD4(1, 1, 1, 1))
        #expect(abs(decoded(502, 512, 512).x - 0.5) < 1e-6)
        // BT.709 red: Y′ = 0.2126, Cb = −0.2126/1.8556/…, as 10-bit codes rounded.
        let red = decoded(250, 409, 960)
        #expect(abs(red.x - 1) < 0.002 && abs(red.y) < 0.002 && abs(red.z) < 0.002, "\(red)")
    }

    /// A rendered scene through our 10-bit converter and back: unbiased (swscale's decode
    /// is half a level dark on average), and within 2 levels where the chroma's 2×2 mean
    /// cannot hold a blur of σ ≈ 20 px exactly (measured up to 1.56).
    @Test func aRenderedFrameComesBackWithinAFractionOfALevel() {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<3 {
            var preset = Preset(
                colors: (0..<4).map { _ in
                    RGBA(
                        bytes: UInt8(generator.next() % 256), UInt8(generator.next() % 256),
                        UInt8(generator.next() % 256))
                })
            (preset.width, preset.height, preset.seed) = (96, 54, generator.next() % 1000)
            let renderer = FrameRenderer(spec: preset.frameSpec)
            let scene = Animator(preset: preset).scene(at: 0.5)
            var rgb = PixelBuffer(width: 96, height: 54, format: .rgba64le)
            var yuv = PixelBuffer(width: 96, height: 54, format: .yuv420p10le)
            renderer.render(scene, dither: false, into: &rgb)
            renderer.render(scene, dither: false, into: &yuv)
            let codes = yuv.withUnsafeBytes { bytes in
                (0..<(bytes.count / 2)).map { UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8 }
            }
            let decoded = FrameSamples(yuv420p10: codes, width: 96, height: 54)
            let expected = FrameSamples(rgb)
            let difference = FrameDifference(expected: expected, actual: decoded, tolerance: 1)
            #expect(difference.largest < 2, "\(difference.largest) levels")
            let bias =
                zip(expected.values, decoded.values).map { Double($1 - $0) }.reduce(0, +)
                / Double(expected.values.count) * 255
            #expect(abs(bias) < 0.05, "mean difference \(bias) levels")
        }
    }

    /// BT.601's red, from its own weights: Y′ = 0.299, Cb = −0.299/1.772·½, Cr = ½.
    @Test func bt601CodesGiveBT601Colours() {
        let frame = FrameSamples(yuv420p10: [326, 326, 326, 326, 361, 960], width: 2, height: 2, matrix: .bt601)
        let red = SIMD4(frame.values[0..<4])
        #expect(abs(red.x - 1) < 0.002 && abs(red.y) < 0.002 && abs(red.z) < 0.002, "\(red)")
    }

    /// Each matrix's frame converts back through its own inverse within 2 levels (as
    /// above), and through the other matrix's far outside them: the control that shows the
    /// matrix reaches the bytes.
    @Test(arguments: YUVMatrix.allCases) func eachMatrixRoundTripsAndTheOtherDoesNot(_ matrix: YUVMatrix) {
        var generator = SplitMix64(seed: 601)
        var preset = Preset(
            colors: (0..<4).map { _ in
                RGBA(bytes: UInt8(generator.next() % 256), UInt8(generator.next() % 256), UInt8(generator.next() % 256))
            })
        (preset.width, preset.height) = (96, 54)
        let renderer = FrameRenderer(spec: preset.frameSpec)
        let scene = Animator(preset: preset).scene(at: 0.5)
        var rgb = PixelBuffer(width: 96, height: 54, format: .rgba64le)
        var yuv = PixelBuffer(width: 96, height: 54, format: .yuv420p10le, matrix: matrix)
        renderer.render(scene, dither: false, into: &rgb)
        renderer.render(scene, dither: false, into: &yuv)
        let codes = yuv.withUnsafeBytes { bytes in
            (0..<(bytes.count / 2)).map { UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8 }
        }
        let expected = FrameSamples(rgb)
        let other: YUVMatrix = matrix == .bt709 ? .bt601 : .bt709
        let own = FrameDifference(
            expected: expected, actual: FrameSamples(yuv420p10: codes, width: 96, height: 54, matrix: matrix),
            tolerance: 1)
        let wrong = FrameDifference(
            expected: expected, actual: FrameSamples(yuv420p10: codes, width: 96, height: 54, matrix: other),
            tolerance: 1)
        #expect(own.largest < 2, "\(own.largest) levels")
        #expect(wrong.largest > 8, "\(wrong.largest) levels")
    }
}
