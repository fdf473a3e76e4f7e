import FluidGradient
import Testing

/// yuv420p10le, what HEVC and AV1 take: BT.709 limited range at 10 bits, from the
/// frame before any 8-bit quantisation and without dither, chroma the mean of each
/// 2×2 block.
@Suite struct TenBitYUVTests {
    /// The exact codes: Y = 64 + 876·Y′, Cb = 512 + 896·(B − Y′)/1.8556,
    /// Cr = 512 + 896·(R − Y′)/1.5748, rounded to the nearest integer.
    static func codes(red r: Double, green g: Double, blue b: Double) -> (y: Double, cb: Double, cr: Double) {
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (64 + 876 * luma, 512 + 896 * (b - luma) / 1.8556, 512 + 896 * (r - luma) / 1.5748)
    }

    /// The planes of a 10-bit buffer as codes: Y, then Cb, then Cr.
    static func planes(_ buffer: PixelBuffer) -> (y: [Int], cb: [Int], cr: [Int]) {
        let words = buffer.withUnsafeBytes { bytes in
            stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
        }
        let luma = buffer.width * buffer.height
        let chroma = ((buffer.width + 1) / 2) * ((buffer.height + 1) / 2)
        #expect(words.count == luma + 2 * chroma)
        return (Array(words[..<luma]), Array(words[luma..<(luma + chroma)]), Array(words[(luma + chroma)...]))
    }

    static func flatFrame(_ color: RGBA, width: Int = 6, height: Int = 4) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: .yuv420p10le)
        FrameRenderer(spec: FrameSpec(width: width, height: height, background: .color(color))).render(
            Scene(base: []), into: &buffer)
        return buffer
    }

    /// Hand-computed codes of the primaries, white, black and grey.
    @Test(arguments: [
        ("#FFFFFF", [940, 512, 512]), ("#000000", [64, 512, 512]), ("#FF0000", [250, 409, 960]),
        ("#00FF00", [691, 167, 105]), ("#0000FF", [127, 960, 471]), ("#808080", [504, 512, 512]),
    ])
    func flatColoursLandOnTheirCodes(hex: String, expected: [Int]) throws {
        let planes = Self.planes(Self.flatFrame(try RGBA(parsing: hex)))
        #expect(Set(planes.y) == [expected[0]])
        #expect(Set(planes.cb) == [expected[1]])
        #expect(Set(planes.cr) == [expected[2]])
    }

    /// Random flat colours land on the nearest code: within ½ of the exact value, and
    /// 10⁻³ more for float arithmetic (a value that close to a tie may round either way).
    @Test func randomFlatColoursLandOnTheNearestCode() {
        var generator = SplitMix64(seed: 23)
        for _ in 0..<200 {
            let (r, g, b) = (generator.nextUnit(), generator.nextUnit(), generator.nextUnit())
            let planes = Self.planes(Self.flatFrame(RGBA(red: r, green: g, blue: b, alpha: 1), width: 2, height: 2))
            let exact = Self.codes(red: Double(Float(r)), green: Double(Float(g)), blue: Double(Float(b)))
            for (code, value) in [(planes.y[0], exact.y), (planes.cb[0], exact.cb), (planes.cr[0], exact.cr)] {
                #expect(abs(Double(code) - value) <= 0.501, "\(code) for \(value) from \(r), \(g), \(b)")
            }
        }
    }

    /// Every code matches the 16-bit RGB render of the same frame: luma pixel by pixel,
    /// chroma from the mean of each 2×2 block (the last column and row of an odd size
    /// pair with themselves). The 16-bit samples are within 1/131070 of the frame, which
    /// moves a code by at most 876 or 896 times that, 0.0069; float arithmetic adds
    /// under 0.001. So each code is within 0.508 of the value from the 16-bit samples.
    @Test(arguments: [(97, 55, "#020617"), (64, 36, "#00000000"), (81, 40, "linear 300 #0B1026 0, #9B3675 1")])
    func codesMatchTheSixteenBitRender(width: Int, height: Int, background: String) throws {
        let spec = FrameSpec(width: width, height: height, background: try Fill(parsing: background))
        var generator = SplitMix64(seed: UInt64(width))
        for _ in 0..<3 {
            let scene = randomScene(seed: generator.next(), width: width, height: height)
            var yuv = PixelBuffer(width: width, height: height, format: .yuv420p10le)
            var rgb = PixelBuffer(width: width, height: height, format: .rgb48le)
            FrameRenderer(spec: spec, threads: 2).render(scene, frameIndex: 3, into: &yuv)
            FrameRenderer(spec: spec, threads: 2).render(scene, frameIndex: 3, into: &rgb)
            let planes = Self.planes(yuv)
            func color(_ x: Int, _ y: Int) -> [Double] {
                rgb.channels(x: min(x, width - 1), y: min(y, height - 1)).map { Double($0) / 65535 }
            }
            var largest = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    let c = color(x, y)
                    largest = max(
                        largest, abs(Double(planes.y[y * width + x]) - Self.codes(red: c[0], green: c[1], blue: c[2]).y)
                    )
                }
            }
            let chromaWidth = (width + 1) / 2
            for cy in 0..<((height + 1) / 2) {
                for cx in 0..<chromaWidth {
                    let block = [
                        color(2 * cx, 2 * cy), color(2 * cx + 1, 2 * cy), color(2 * cx, 2 * cy + 1),
                        color(2 * cx + 1, 2 * cy + 1),
                    ]
                    let mean = (0..<3).map { lane in block.map { $0[lane] }.reduce(0, +) / 4 }
                    let exact = Self.codes(red: mean[0], green: mean[1], blue: mean[2])
                    largest = max(largest, abs(Double(planes.cb[cy * chromaWidth + cx]) - exact.cb))
                    largest = max(largest, abs(Double(planes.cr[cy * chromaWidth + cx]) - exact.cr))
                }
            }
            #expect(largest <= 0.508, "largest distance \(largest) codes")
        }
    }

    /// Two bytes a sample: Y at full size, Cb and Cr rounded up to half.
    @Test func layoutIsTwoBytesASampleWithChromaRoundedUp() {
        #expect(PixelFormat.yuv420p10le.byteCount(width: 5, height: 3) == (15 + 2 * 3 * 2) * 2)
        #expect(
            PixelFormat.yuv420p10le.byteCount(width: 64, height: 36) == 2
                * PixelFormat.yuv420p.byteCount(width: 64, height: 36))
        #expect(PixelFormat.yuv420p10le.bitDepth == 16 && !PixelFormat.yuv420p10le.hasAlpha)
    }
}
