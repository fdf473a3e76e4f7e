import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// `Frame(pngData:)`: a PNG from memory as a frame, the inverse of `pngData()`.
@Suite struct FramePNGDataTests {
    /// Rendered frames at both depths, opaque and transparent: decoding the PNG gives the
    /// same frame, and encoding that gives the same bytes.
    @Test(arguments: [Frame.Depth.eight, .sixteen], [false, true])
    func aRenderedFrameRoundTripsByteForByte(depth: Frame.Depth, transparent: Bool) throws {
        var preset = try Preset(builtIn: "ocean")
        if transparent { preset.background = .color(.clear) }
        let frame = try preset.frame(at: 0, width: 96, height: 54, depth: depth)
        #expect(frame.hasTransparency == transparent)
        let png = try frame.pngData()
        let decoded = try Frame(pngData: png)
        #expect(decoded == frame)
        #expect(decoded.depth == depth && decoded.hasTransparency == transparent && decoded.time == 0)
        #expect(try decoded.pngData() == png)
    }

    /// Random samples from the seeded generator, in every layout a PNG of the engine's
    /// can have; an RGB PNG's frame is opaque.
    @Test(arguments: [PixelFormat.rgba, .rgba64le], [false, true])
    func randomSamplesRoundTrip(format: PixelFormat, alpha: Bool) throws {
        var generator = SplitMix64(seed: alpha ? 2601 : 2602)
        for size in [(1, 1), (7, 3), (33, 17)] {
            var pixels = PixelBuffer(width: size.0, height: size.1, format: format)
            let bytesPerSample = format.bitDepth / 8
            pixels.withUnsafeMutableBytes { bytes in
                for index in bytes.indices {
                    let isAlpha = (index / bytesPerSample) % 4 == 3
                    bytes[index] = isAlpha && !alpha ? 0xFF : UInt8(generator.nextUnit() * 256)
                }
            }
            let frame = Frame(pixels: pixels, time: 0, hasTransparency: alpha)
            let png = try frame.pngData()
            #expect(try Frame(pngData: png) == frame, "\(size)")
            #expect(try Frame(pngData: png).pngData() == png, "\(size)")
        }
    }

    @Test func bytesThatAreNotAPNGThrowAPNGError() throws {
        let png = try Preset(builtIn: "aurora").frame(at: 0, width: 16, height: 9).pngData()
        for bytes in [Data(), Data("not a png".utf8), png.prefix(png.count / 2), png.prefix(8)] {
            #expect {
                try Frame(pngData: bytes)
            } throws: { error in
                guard case .cannotDecode(let path, let message) = error as? PNGError else { return false }
                return path == "PNG data" && !message.isEmpty
            }
        }
    }
}
