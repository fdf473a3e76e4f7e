import FluidGradient
import Testing

/// The stacked-alpha layout (issue 23, contract 2): W×2H, the premultiplied colour on
/// top, the alpha as grey below, both opaque.
@Suite struct StackedAlphaTests {
    /// A 16-bit straight-alpha frame from `(R, G, B, A)` samples, row by row.
    static func frame(width: Int, height: Int, _ pixels: [SIMD4<UInt16>]) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: .rgba64le)
        buffer.withUnsafeMutableBytes { bytes in
            let samples = bytes.assumingMemoryBound(to: UInt16.self)
            for (index, pixel) in pixels.enumerated() {
                for lane in 0..<4 { samples[4 * index + lane] = pixel[lane].littleEndian }
            }
        }
        return buffer
    }

    static func stacked(
        _ frame: PixelBuffer, _ format: PixelFormat, dither: Bool = false, frameIndex: Int = 0
    ) -> PixelBuffer {
        var stacked = PixelBuffer(width: frame.width, height: 2 * frame.height, format: format)
        StackedAlpha.pack(frame, into: &stacked, dither: dither, frameIndex: frameIndex)
        return stacked
    }

    /// Fully transparent (with a colour that must not show), fully opaque, half and
    /// nearly transparent: colour × alpha above, alpha below, every value by hand.
    static let handBuilt = frame(
        width: 2, height: 2,
        [
            SIMD4(65535, 65535, 65535, 0), SIMD4(65535, 32768, 0, 65535),
            SIMD4(40000, 65535, 0, 32768), SIMD4(65535, 65535, 65535, 257),
        ])

    @Test func handBuiltPixelsAt16Bits() {
        let stacked = Self.stacked(Self.handBuilt, .rgba64le)
        #expect(stacked.channels(x: 0, y: 0) == [0, 0, 0, 65535])
        #expect(stacked.channels(x: 1, y: 0) == [65535, 32768, 0, 65535])
        // 40000·32768/65535 = 20000.3; 65535·32768/65535 = 32768.
        #expect(stacked.channels(x: 0, y: 1) == [20000, 32768, 0, 65535])
        #expect(stacked.channels(x: 1, y: 1) == [257, 257, 257, 65535])
        #expect(stacked.channels(x: 0, y: 2) == [0, 0, 0, 65535])
        #expect(stacked.channels(x: 1, y: 2) == [65535, 65535, 65535, 65535])
        #expect(stacked.channels(x: 0, y: 3) == [32768, 32768, 32768, 65535])
        #expect(stacked.channels(x: 1, y: 3) == [257, 257, 257, 65535])
    }

    @Test func handBuiltPixelsAt8Bits() {
        let stacked = Self.stacked(Self.handBuilt, .rgba)
        #expect(stacked.channels(x: 0, y: 0) == [0, 0, 0, 255])
        // 255·32768/65535 = 127.502, rounded to 128.
        #expect(stacked.channels(x: 1, y: 0) == [255, 128, 0, 255])
        // 255·20000.3/65535 = 77.8.
        #expect(stacked.channels(x: 0, y: 1) == [78, 128, 0, 255])
        #expect(stacked.channels(x: 1, y: 1) == [1, 1, 1, 255])
        #expect(stacked.channels(x: 0, y: 2) == [0, 0, 0, 255])
        #expect(stacked.channels(x: 1, y: 2) == [255, 255, 255, 255])
        #expect(stacked.channels(x: 0, y: 3) == [128, 128, 128, 255])
        #expect(stacked.channels(x: 1, y: 3) == [1, 1, 1, 255])
    }

    /// In BT.709 limited range, grey has Cb = Cr = 128 and Y = 16 + 219·alpha: alpha 0 is
    /// Y 16 and alpha 1 is Y 235, exactly, under every dither threshold (64×64 pixels
    /// cover the tile; 8 frames move it).
    @Test(arguments: [UInt16(0), 65535])
    func alphaEndpointsAreExactCodesUnderDither(alpha: UInt16) {
        let size = 64
        let pixels = Array(repeating: SIMD4<UInt16>(65535, 0, 32768, alpha), count: size * size)
        let frame = Self.frame(width: size, height: size, pixels)
        for frameIndex in 0..<8 {
            let bytes = Self.stacked(frame, .yuv420p, dither: true, frameIndex: frameIndex).bytes
            let luma = bytes[0..<(2 * size * size)], chroma = bytes[(2 * size * size)...]
            let alphaLuma = luma[(size * size)...]
            #expect(alphaLuma.allSatisfy { $0 == (alpha == 0 ? 16 : 235) })
            // The colour half is black for alpha 0; its chroma rows are the first half of each plane.
            let chromaPlane = size / 2 * size
            for plane in 0..<2 {
                let start = chroma.startIndex + plane * chromaPlane
                let alphaRows = chroma[(start + chromaPlane / 2)..<(start + chromaPlane)]
                #expect(alphaRows.allSatisfy { $0 == 128 })
            }
            if alpha == 0 { #expect(luma[..<(size * size)].allSatisfy { $0 == 16 }) }
        }
    }

    /// Random 16-bit frames from the project's generator, a sixth of their alphas at 0
    /// or 1. At 16 bits the alpha rows are exact and the colour is within 1 of the exact
    /// product (Float rounding); at 8 bits, dithered, every value is one of the two levels
    /// either side of the exact one, and alpha 0 and 1 are exact; in yuv420p the alpha rows
    /// have Cb = Cr = 128 and Y within a level of 16 + 219·alpha. The bytes do not depend
    /// on the thread count.
    @Test(arguments: [UInt64(23), 2_023])
    func randomFramesMatchTheExactProducts(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let width = 37, height = 20
        let pixels = (0..<(width * height)).map { _ -> SIMD4<UInt16> in
            func sample() -> UInt16 { UInt16(generator.next() >> 48) }
            let pick = generator.next() % 6
            return SIMD4(sample(), sample(), sample(), pick == 0 ? 0 : pick == 1 ? 65535 : sample())
        }
        let frame = Self.frame(width: width, height: height, pixels)
        let wide = Self.stacked(frame, .rgba64le), narrow = Self.stacked(frame, .rgba, dither: true, frameIndex: 5)
        let planar = Self.stacked(frame, .yuv420p, dither: true, frameIndex: 5)
        var threaded = PixelBuffer(width: width, height: 2 * height, format: .yuv420p)
        StackedAlpha.pack(frame, into: &threaded, dither: true, frameIndex: 5, threads: 3)
        #expect(threaded.bytes == planar.bytes)
        let planarBytes = planar.bytes
        for (index, pixel) in pixels.enumerated() {
            let x = index % width, y = index / width, alpha = Int(pixel.w)
            #expect(wide.channels(x: x, y: y + height) == [alpha, alpha, alpha, 65535])
            let narrowAlpha = narrow.channels(x: x, y: y + height)
            #expect(abs(Double(narrowAlpha[0]) - Double(alpha) / 257) < 1 && narrowAlpha[3] == 255)
            if alpha == 0 || alpha == 65535 { #expect(narrowAlpha[0] == alpha / 257) }
            let luma = Double(planarBytes[(y + height) * width + x])
            #expect(abs(luma - (16 + 219 * Double(alpha) / 65535)) < 1)
            for lane in 0..<3 {
                let exact = Double(pixel[lane]) * Double(alpha) / 65535
                #expect(abs(Double(wide.channels(x: x, y: y)[lane]) - exact) <= 1)
                #expect(abs(Double(narrow.channels(x: x, y: y)[lane]) - exact / 257) < 1)
            }
        }
        let chromaWidth = (width + 1) / 2, chroma = planarBytes[(2 * width * height)...]
        for plane in 0..<2 {
            let start = chroma.startIndex + plane * chromaWidth * height + chromaWidth * height / 2
            #expect(chroma[start..<(start + chromaWidth * height / 2)].allSatisfy { $0 == 128 })
        }
    }

    /// Each half is padded to a multiple of 64 rows with at least 8 rows of padding.
    @Test func halvesArePaddedToTheBlockWithAMargin() {
        let cases = [(1, 64), (56, 64), (57, 128), (90, 128), (176, 192), (270, 320), (360, 384), (1080, 1088)]
        for (height, padded) in cases { #expect(StackedAlpha.paddedHeight(height) == padded, "\(height)") }
    }

    /// The tag's height, the unpadded tag's half, and nothing for what is not the tag.
    @Test func theTagGivesTheContentHeight() {
        let tag = StackedAlpha.layoutComment
        #expect(StackedAlpha.contentHeight(comment: tag + ";height=270", storedHeight: 640) == 270)
        #expect(StackedAlpha.contentHeight(comment: tag, storedHeight: 540) == 270)
        #expect(StackedAlpha.contentHeight(comment: tag, storedHeight: 541) == nil)
        for comment in [
            nil, "", "other", tag + ";height=", tag + ";height=0", tag + ";height=321", tag + ";h=2", tag + "x",
        ] {
            #expect(StackedAlpha.contentHeight(comment: comment, storedHeight: 640) == nil, "\(comment ?? "nil")")
        }
    }

    /// Packed into padded halves: the colour's last row repeats below it, the alpha's first
    /// row above it, and the alpha fills the last H rows, at 8 and 16 bits and in 4:2:0.
    @Test(arguments: [PixelFormat.rgba64le, .rgba, .yuv420p]) func paddingRepeatsTheRowsAtTheSeam(format: PixelFormat) {
        var generator = SplitMix64(seed: 270)
        let width = 6, height = 5, half = StackedAlpha.paddedHeight(height)
        let pixels = (0..<(width * height)).map { _ in
            SIMD4<UInt16>(UInt16(generator.next() >> 48), 40000, 20000, UInt16(generator.next() >> 48))
        }
        let frame = Self.frame(width: width, height: height, pixels)
        var padded = PixelBuffer(width: width, height: 2 * half, format: format)
        StackedAlpha.pack(frame, into: &padded, dither: false, frameIndex: 0)
        let unpadded = Self.stacked(frame, format)
        func row(_ buffer: PixelBuffer, _ y: Int) -> [UInt8] {
            let bytes = buffer.format.bytesPerPixel ?? 1
            return Array(buffer.bytes[(y * width * bytes)..<((y + 1) * width * bytes)])
        }
        for y in 0..<height {
            #expect(row(padded, y) == row(unpadded, y), "colour row \(y)")
            #expect(row(padded, 2 * half - height + y) == row(unpadded, height + y), "alpha row \(y)")
        }
        for y in height..<half { #expect(row(padded, y) == row(unpadded, height - 1), "padding row \(y)") }
        for y in half..<(2 * half - height) { #expect(row(padded, y) == row(unpadded, height), "padding row \(y)") }
    }
}
