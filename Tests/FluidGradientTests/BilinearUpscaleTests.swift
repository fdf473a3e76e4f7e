import FluidGradient
import Testing

/// The bilinear upscaler that stands in for a player scaling a small encode up to the
/// display size: pixel-centre aligned, edge samples clamped, on premultiplied values.
@Suite struct BilinearUpscaleTests {
    /// An opaque frame whose pixel `(x, y)` is `value(x, y)` in R, G and B.
    static func frame(width: Int, height: Int, _ value: (Int, Int) -> SIMD3<Float>) -> FrameSamples {
        var values: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let v = value(x, y)
                values += [v.x, v.y, v.z, 1]
            }
        }
        return FrameSamples(width: width, height: height, values: values)
    }

    static func pixel(_ frame: FrameSamples, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let offset = 4 * (y * frame.width + x)
        return SIMD4(frame.values[offset..<(offset + 4)])
    }

    @Test func reproducesALinearRampExactlyInside() {
        // Dyadic values and a 2x step put every product and sum exactly in a Float.
        let ramp = Self.frame(width: 8, height: 4) { x, y in SIMD3(Float(x) / 8, Float(y) / 8, 0.5) }
        let up = ramp.upscaledBilinear(width: 16, height: 8)
        for y in 1..<7 {
            for x in 1..<15 {
                let source = SIMD2(Float(x) / 2 - 0.25, Float(y) / 2 - 0.25)
                #expect(Self.pixel(up, x, y) == SIMD4(source.x / 8, source.y / 8, 0.5, 1), "at (\(x), \(y))")
            }
        }
    }

    @Test func reproducesALinearRampInsideAtAFractionalRatio() {
        let ramp = Self.frame(width: 8, height: 3) { x, _ in SIMD3(Float(x) / 8, 0.25, 1 - Float(x) / 8) }
        let up = ramp.upscaledBilinear(width: 20, height: 3)
        for x in 1..<19 {
            let source = (Double(x) + 0.5) * 0.4 - 0.5
            let red = Double(Self.pixel(up, x, 1).x), blue = Double(Self.pixel(up, x, 1).z)
            // The position is not dyadic: a Float holds it to about 1e-7.
            #expect(abs(red - source / 8) < 1e-6 && abs(blue - (1 - source / 8)) < 1e-6, "at x = \(x)")
        }
    }

    @Test func doublesKnownValuesToKnownNumbers() {
        // Corners 0, 1 (top) and 0.5, 0.25 (bottom): a 2x upscale samples at ±0.25 of a
        // source pixel, weights 3/4 and 1/4, and repeats the edge beyond the centres.
        let small = Self.frame(width: 2, height: 2) { x, y in SIMD3(repeating: [[0, 1], [0.5, 0.25]][y][x]) }
        let up = small.upscaledBilinear(width: 4, height: 4)
        let expected: [[Float]] = [
            [0, 0.25, 0.75, 1],
            [0.125, 0.296875, 0.640625, 0.8125],
            [0.375, 0.390625, 0.421875, 0.4375],
            [0.5, 0.4375, 0.3125, 0.25],
        ]
        for y in 0..<4 {
            for x in 0..<4 {
                #expect(Self.pixel(up, x, y) == SIMD4(SIMD3(repeating: expected[y][x]), 1), "at (\(x), \(y))")
            }
        }
    }

    @Test func clampsTheBorderToTheEdgePixels() {
        let small = Self.frame(width: 3, height: 1) { x, _ in SIMD3(repeating: [0.25, 0.5, 1][x]) }
        let up = small.upscaledBilinear(width: 9, height: 3)
        // Source positions (x + 0.5)/3 − 0.5: −1/3 and 0 take the first pixel as it is,
        // 2 and 7/3 the last.
        let reds = (0..<9).map { Self.pixel(up, $0, 2).x }
        #expect(reds[0] == 0.25 && reds[1] == 0.25 && reds[7] == 1 && reds[8] == 1)
        #expect(abs(reds[2] - (0.25 + 0.25 / 3)) < 1e-7 && abs(reds[4] - 0.5) < 1e-7)
        #expect((0..<9).allSatisfy { Self.pixel(up, $0, 0) == Self.pixel(up, $0, 2) })
    }

    @Test func interpolatesPremultipliedSoHiddenColoursStayHidden() {
        // Opaque red beside fully transparent blue: the blue must not tint the red.
        let small = FrameSamples(width: 2, height: 1, values: [1, 0, 0, 1, 0, 0, 1, 0])
        let up = small.upscaledBilinear(width: 4, height: 1)
        #expect(Self.pixel(up, 1, 0) == SIMD4(1, 0, 0, 0.75))
        #expect(Self.pixel(up, 2, 0) == SIMD4(1, 0, 0, 0.25))
        #expect(Self.pixel(up, 3, 0) == SIMD4(0, 0, 0, 0))
    }

    @Test func keepsAFrameOfTheSameSize() {
        var generator = SplitMix64(seed: 5)
        let frame = Self.frame(width: 7, height: 5) { _, _ in
            SIMD3(Float(generator.nextUnit()), Float(generator.nextUnit()), Float(generator.nextUnit()))
        }
        #expect(frame.upscaledBilinear(width: 7, height: 5).values == frame.values)
    }

    /// The same interpolation written as a sum of tent weights over every source pixel,
    /// at the source position clamped to the outer pixel centres.
    static func tentOracle(_ small: FrameSamples, width: Int, height: Int, x: Int, y: Int) -> SIMD4<Double> {
        func position(_ index: Int, _ source: Int, _ target: Int) -> Double {
            min(max((Double(index) + 0.5) * Double(source) / Double(target) - 0.5, 0), Double(source - 1))
        }
        let u = position(x, small.width, width), v = position(y, small.height, height)
        var sum = SIMD4<Double>.zero
        for j in 0..<small.height {
            for i in 0..<small.width {
                let weight = max(0, 1 - abs(u - Double(i))) * max(0, 1 - abs(v - Double(j)))
                if weight > 0 { sum += weight * SIMD4<Double>(small.premultiplied(x: i, y: j)) }
            }
        }
        return sum
    }

    @Test func matchesTentWeightsOnRandomFramesAndSizes() {
        var generator = SplitMix64(seed: 23)
        for _ in 0..<40 {
            let width = 1 + Int(generator.next() % 9), height = 1 + Int(generator.next() % 9)
            let values = (0..<(4 * width * height)).map { _ in Float(generator.nextUnit()) }
            let small = FrameSamples(width: width, height: height, values: values)
            let targetWidth = width + Int(generator.next() % 30), targetHeight = height + Int(generator.next() % 30)
            let up = small.upscaledBilinear(width: targetWidth, height: targetHeight)
            var largest = 0.0
            for y in 0..<targetHeight {
                for x in 0..<targetWidth {
                    let oracle = Self.tentOracle(small, width: targetWidth, height: targetHeight, x: x, y: y)
                    let difference = SIMD4<Double>(up.premultiplied(x: x, y: y)) - oracle
                    largest = max(largest, difference.max(), -difference.min())
                }
            }
            // Float arithmetic against Double, and the un- and re-premultiplication.
            #expect(largest < 1e-5, "\(width)x\(height) to \(targetWidth)x\(targetHeight): \(largest)")
        }
    }

    @Test func comparesAnUpscaledFrameWithAFullSizeOne() {
        var generator = SplitMix64(seed: 9)
        let small = Self.frame(width: 6, height: 4) { _, _ in SIMD3(repeating: Float(generator.nextUnit())) }
        let full = Self.frame(width: 15, height: 10) { x, y in SIMD3(repeating: Float(x + y) / 30) }
        let upscaled = small.upscaledBilinear(width: 15, height: 10)
        let direct = FrameDifference(expected: full, actual: upscaled, tolerance: 1)
        #expect(FrameDifference(expected: full, upscaling: small, tolerance: 1) == direct)
        #expect(direct.largest > 0)
        let flat = Self.frame(width: 3, height: 2) { _, _ in SIMD3(repeating: 0.5) }
        let flatFull = Self.frame(width: 12, height: 8) { _, _ in SIMD3(repeating: 0.5) }
        #expect(FrameDifference(expected: flatFull, upscaling: flat, tolerance: 0).largest == 0)
    }
}
