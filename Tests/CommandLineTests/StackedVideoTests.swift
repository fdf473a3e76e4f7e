import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// `--alpha stacked` through the real ffmpeg: the file's shape and tag, and its frames
/// decoded and recombined as the web player does.
@Suite(.serialized) struct StackedVideoTests {
    /// The web player's alpha of pixel `pixel` of a decoded stacked RGB frame, `stored` rows
    /// high, whose halves hold `height` rows (see Web/fluidgradient-player.js): the BT.709
    /// luma of the alpha's RGB, in which the chroma the codec adds cancels. The alpha is the
    /// last `height` rows; padding keeps the colour's chroma away from them.
    static func alpha(of pixel: Int, in rgb: [UInt8], width: Int, height: Int, stored: Int) -> Int {
        let offset = 3 * (width * (stored - height) + pixel)
        return (2126 * Int(rgb[offset]) + 7152 * Int(rgb[offset + 1]) + 722 * Int(rgb[offset + 2]) + 5000) / 10000
    }

    /// Renders `arguments` as a stacked .mp4 and as 16-bit PNGs, then for every frame
    /// pairs the recombined alpha (8-bit) with the PNG's alpha (0...65535).
    static func decodedAlphas(_ arguments: [String], width: Int, height: Int) throws -> [[(decoded: Int, frame: Int)]] {
        let scratch = Scratch()
        let size = ["--size", "\(width)x\(height)"]
        let stacked = run(["render"] + arguments + size + ["--alpha", "stacked", "-o", scratch.file("s.mp4")])
        #expect(stacked.status == 0, "\(stacked.stderr)")
        let pngs = run(["render"] + arguments + size + ["--depth", "16", "-o", scratch.file("%03d.png")])
        #expect(pngs.status == 0, "\(pngs.stderr)")
        let stored = StackedAlphaSink.storedHeight(height)
        let decoded = decodeFrames(scratch.file("s.mp4"), width: width, height: stored, bilinearChroma: true)
        return try decoded.enumerated().map { index, rgb in
            let samples = try PNGFile.read(scratch.file(String(format: "%03d.png", index))).storedSamples
            return (0..<(width * height)).map { pixel in
                (
                    alpha(of: pixel, in: rgb, width: width, height: height, stored: stored),
                    Int(samples[4 * pixel + 3])
                )
            }
        }
    }

    @Test func theFileHoldsTwoPaddedHalvesAndIsTaggedAsStacked() {
        let scratch = Scratch()
        let result = run(
            [
                "render", "--background", "transparent", "--size", "160x90", "--frames", "6", "--alpha", "stacked",
                "-o", scratch.file("s.mp4"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no note: the stacked file keeps the alpha")
        let info = probe(scratch.file("s.mp4"))
        #expect(info["codec_name"] == "h264" && info["pix_fmt"] == "yuv420p")
        // 90 rows and at least 8 of padding, to a multiple of 64: 128 a half.
        #expect(info["width"] == "160" && info["height"] == "256")
        #expect(info["nb_read_frames"] == "6")
        #expect(info["color_space"] == "bt709" && info["color_range"] == "tv")
        let tags = toolOutput(
            [
                "ffprobe", "-v", "error", "-show_entries", "format_tags=comment", "-of", "default=noprint_wrappers=1",
                scratch.file("s.mp4"),
            ])
        #expect(String(decoding: tags, as: UTF8.self) == "TAG:comment=\(StackedAlpha.layoutComment);height=90\n")
    }

    /// The recombined alpha of a moving, softly transparent loop matches the frame's.
    /// Grey has no chroma and the player's luma weights cancel what chroma the codec
    /// adds, so the error is H.264's luma quantisation at CRF 18: measured here, largest
    /// 6.3 levels and mean 0.56 (8 leaves room for another x264 build's choices).
    @Test func recombinedAlphaMatchesTheFrameWithinTheCodecsQuantisation() throws {
        let frames = try Self.decodedAlphas(
            ["--background", "transparent", "--duration", "0.5"], width: 320, height: 180)
        #expect(frames.count == 30)
        var largest = 0.0, total = 0.0, count = 0.0
        for pairs in frames {
            for pair in pairs {
                let error = abs(Double(pair.decoded) - Double(pair.frame) / 257)
                largest = max(largest, error)
                total += error
                count += 1
            }
        }
        #expect(largest <= 8, "largest \(largest)")
        #expect(total / count < 1, "mean \(total / count)")
    }

    /// At a height no block size divides (270 = 16·16 + 14), the halves are padded apart.
    /// Measured on these 20 frames: unpadded (480x540), the codec's blocks and the 4:2:0
    /// chroma straddled the seam and the alpha was 7.9 levels off at its first row (mean
    /// 0.49); padded (480x640), largest 3.3 and mean 0.48, the codec's quantisation. The bar
    /// of 5 sits between the two.
    @Test func atAHeightNoBlockDividesTheAlphaStaysWithinTheBar() throws {
        let frames = try Self.decodedAlphas(
            ["--background", "transparent", "--frames", "20"], width: 480, height: 270)
        #expect(frames.count == 20)
        var largest = 0.0
        for pairs in frames {
            for pair in pairs { largest = max(largest, abs(Double(pair.decoded) - Double(pair.frame) / 257)) }
        }
        #expect(largest <= 5, "largest \(largest)")
    }

    /// Where the frame's alpha is exactly 0 or 1 over a flat area (8 pixels from any other
    /// alpha, so away from the codec's blocks and deblocking at an edge), the recombined
    /// alpha is exactly 0 or 255, in every row: the background's alpha steps from 0 to 1
    /// across the middle, under a saturated opaque blue whose chroma 4:2:0 upsampling
    /// carries into the top alpha row of an unpadded file (10 levels off there).
    /// 176 rows are a multiple of 16, where only the margin keeps the halves apart.
    @Test func flatTransparentAndOpaqueAreasComeOutExact() throws {
        let width = 320, height = 176
        let fill = "linear 0 #FF000000 0, #FF000000 0.4, #20A0FF 0.6, #20A0FF 1"
        let frames = try Self.decodedAlphas(
            ["--colors", "#00000000", "--highlights", "", "--background", fill, "--frames", "3"],
            width: width, height: height)
        #expect(frames.count == 3)
        let alphas = frames[0].map(\.frame)
        let row = Array(alphas[0..<width])
        let flat = (0..<width).filter { x in
            (max(0, x - 8)...min(width - 1, x + 8)).allSatisfy { row[$0] == row[x] } && (row[x] == 0 || row[x] == 65535)
        }
        #expect(flat.count > width / 2)
        var wrong: [String] = []
        for (index, pairs) in frames.enumerated() {
            for y in 0..<height {
                for x in flat where pairs[y * width + x].decoded != alphas[y * width + x] / 257 {
                    wrong.append("frame \(index) (\(x), \(y)): \(pairs[y * width + x].decoded)")
                }
            }
            #expect(pairs.map(\.frame) == alphas, "a still background")
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "first: \(wrong.prefix(3))")
    }
}
