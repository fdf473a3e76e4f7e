import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// The engine's bilinear upscaler against the scaler it stands in for: ffmpeg's
/// `scale=W:H:flags=bilinear`, which is also what players and browsers do at least.
@Suite struct UpscaleAgainstFFmpegTests {
    @Test(arguments: [(12, 7, 48, 28), (12, 7, 40, 25), (9, 16, 27, 61)])
    func matchesFFmpegsBilinearScale(width: Int, height: Int, targetWidth: Int, targetHeight: Int) throws {
        let scratch = Scratch()
        // Random 16-bit samples: any misalignment of the sample grid would show as tens of levels.
        var generator = SplitMix64(seed: UInt64(width * 1000 + targetWidth))
        var small = PixelBuffer(width: width, height: height, format: .rgb48le)
        small.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        try PNGFile.write(small, to: scratch.file("small.png"))
        _ = toolOutput(
            [
                "ffmpeg", "-v", "error", "-i", scratch.file("small.png"),
                "-vf", "scale=\(targetWidth):\(targetHeight):flags=bilinear",
                "-pix_fmt", "rgb48be", scratch.file("big.png"),
            ])
        let big = try PNGFile.read(scratch.file("big.png"))
        #expect(big.width == targetWidth && big.height == targetHeight && big.bitDepth == 16)
        let ffmpeg = big.samples
        let difference = FrameDifference(expected: ffmpeg, upscaling: FrameSamples(small), tolerance: 0)
        // swscale interpolates in fixed point (14-bit weights, 15-bit intermediates):
        // measured 0.10 to 0.14 levels on such noise, where a half-pixel shift gives tens.
        #expect(difference.largest <= 0.25, "largest \(difference.largest) levels at \(difference.worst)")
    }
}
