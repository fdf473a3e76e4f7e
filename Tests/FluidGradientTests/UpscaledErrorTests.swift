import FluidGradient
import Foundation
import Testing

/// The bundle's measure: squared error and largest difference of a bilinear upscale,
/// over RGB or premultiplied RGBA.
@Suite struct UpscaledErrorTests {
    /// A frame with straight RGBA values from `value(x, y)`.
    private static func frame(width: Int, height: Int, _ value: (Int, Int) -> SIMD4<Float>) -> FrameSamples {
        var values: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let v = value(x, y)
                values += [v.x, v.y, v.z, v.w]
            }
        }
        return FrameSamples(width: width, height: height, values: values)
    }

    /// Equal frames: no error, infinite PSNR; one level everywhere in RGB: PSNR
    /// 20·log10(255) exactly, and the alpha channel left out.
    @Test func knownDifferencesGiveKnownNumbers() {
        let grey = Self.frame(width: 4, height: 2) { _, _ in SIMD4(0.5, 0.5, 0.5, 1) }
        let same = UpscaledError(expected: grey, small: grey, includeAlpha: false)
        #expect(same.largest == 0 && same.psnr == .infinity && same.samples == 24)
        let step = Float(1) / 255
        let lighter = Self.frame(width: 4, height: 2) { _, _ in SIMD4(0.5 + step, 0.5 + step, 0.5 + step, 1) }
        let error = UpscaledError(expected: grey, small: lighter, includeAlpha: false)
        #expect(abs(error.largest - 1) < 1e-4)
        #expect(abs(error.psnr - 20 * log10(255)) < 1e-3)
        let withAlpha = UpscaledError(expected: grey, small: lighter, includeAlpha: true)
        // A quarter of the samples (alpha) are exact: the mean square is 3/4 of it.
        #expect(abs(withAlpha.psnr - (20 * log10(255) + 10 * log10(4.0 / 3))) < 1e-3)
    }

    /// Against the upscaler and FrameDifference it stands in for, on seeded random frames:
    /// the same largest difference, and the same PSNR once FrameDifference's four channels
    /// are counted.
    @Test func agreesWithTheUpscalerOnRandomFrames() {
        var generator = SplitMix64(seed: 41)
        for _ in 0..<20 {
            let width = 1 + Int(generator.next() % 7), height = 1 + Int(generator.next() % 7)
            let factor = 1 + Int(generator.next() % 4)
            let small = Self.frame(width: width, height: height) { _, _ in
                SIMD4(
                    Float(generator.nextUnit()), Float(generator.nextUnit()), Float(generator.nextUnit()),
                    Float(generator.nextUnit()))
            }
            let full = Self.frame(width: width * factor, height: height * factor) { _, _ in
                SIMD4(
                    Float(generator.nextUnit()), Float(generator.nextUnit()), Float(generator.nextUnit()),
                    Float(generator.nextUnit()))
            }
            let measured = UpscaledError(expected: full, small: small, includeAlpha: true)
            let reference = FrameDifference(expected: full, upscaling: small, tolerance: 1)
            // Float sums in a different order, and FrameDifference's 10⁻⁴-level rounding.
            #expect(abs(measured.largest - reference.largest) < 1e-3)
            #expect(abs(measured.psnr - reference.psnr) < 1e-3)
        }
    }

    /// Several instants pool their squares, so the PSNR is that of the mean square.
    @Test func addingPoolsTheSquaresAndKeepsTheLargest() {
        let grey = Self.frame(width: 2, height: 2) { _, _ in SIMD4(0.5, 0.5, 0.5, 1) }
        let off = { (levels: Float) in
            Self.frame(width: 2, height: 2) { _, _ in SIMD4(0.5 + levels / 255, 0.5, 0.5, 1) }
        }
        var pooled = UpscaledError(expected: grey, small: off(1), includeAlpha: false)
        pooled.add(UpscaledError(expected: grey, small: off(3), includeAlpha: false))
        #expect(abs(pooled.largest - 3) < 1e-3)
        // (1² + 3²)·4 pixels over 24 samples, in units of 1/255.
        let meanSquare = (1.0 + 9.0) * 4 / 24 / (255.0 * 255.0)
        #expect(abs(pooled.psnr - 10 * log10(1 / meanSquare)) < 1e-3)
    }
}
