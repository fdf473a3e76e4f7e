import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Foundation
import Testing

/// `frame.difference(from:)` is what `fluidgradient compare` reports for the same pair
/// of PNGs, and its map is the third panel of compare's `--diff` strip.
@Suite struct FrameDifferenceTests {
    /// The JSON report's one frame, after `compare EXPECTED ACTUAL --json --diff DIR`.
    static func commandReport(expected: Frame, actual: Frame, in scratch: Scratch) throws -> [String: Any] {
        try expected.pngData().write(to: URL(fileURLWithPath: scratch.file("expected.png")))
        try actual.pngData().write(to: URL(fileURLWithPath: scratch.file("actual.png")))
        let result = run([
            "compare", scratch.file("expected.png"), scratch.file("actual.png"), "--json", "--diff",
            scratch.file("diffs"),
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])
        return try #require(frames.first)
    }

    /// The report's numbers are rounded to 10⁻⁶.
    static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    static func expectSameAsCommand(_ difference: Frame.Difference, _ report: [String: Any], scratch: Scratch) throws {
        #expect(report["largestDifference"] as? Double == rounded(difference.largestDifference))
        #expect(report["psnr"] as? Double == rounded(difference.psnr))
        #expect(report["meanDeltaE"] as? Double == rounded(difference.meanDeltaE))
        #expect(report["largestDeltaE"] as? Double == rounded(difference.largestDeltaE))
        #expect(report["score"] as? Double == rounded(difference.score))
        let worst = try #require(report["worst"] as? [String: Any])
        #expect(worst["x"] as? Int == difference.worst.x && worst["y"] as? Int == difference.worst.y)
        #expect(worst["channel"] as? String == ["R", "G", "B", "A"][difference.worst.channel])
        let strip = try PNGFile.read(scratch.file("diffs/expected.diff.png"))
        let map = difference.map, width = map.width
        #expect(strip.width == 3 * width && strip.height == map.height && strip.storedChannels == 3)
        let samples = strip.storedSamples
        var panel: [UInt16] = []
        for y in 0..<map.height {
            for x in 0..<width {
                let start = (y * 3 * width + 2 * width + x) * 3
                panel += samples[start..<(start + 3)]
            }
        }
        let mapColours = map.bytes.enumerated().filter { $0.offset % 4 != 3 }.map { UInt16($0.element) }
        #expect(panel == mapColours)
    }

    @Test func aFrameDoesNotDifferFromItself() throws {
        let frame = try Preset(builtIn: "sunset").frame(at: 1, width: 64, height: 36, depth: .sixteen)
        let difference = try #require(frame.difference(from: frame))
        #expect(difference.score == 100 && difference.psnr == .infinity && difference.largestDifference == 0)
        #expect(difference.worst == (0, 0, 0))
        #expect(difference.meanDeltaE == 0 && difference.largestDeltaE == 0)
        #expect(difference.map.width == 64 && difference.map.height == 36 && difference.map.depth == .eight)
        #expect(!difference.map.hasTransparency)
        let black: [UInt8] = (0..<(64 * 36 * 4)).map { $0 % 4 == 3 ? 255 : 0 }
        #expect(difference.map.bytes == black)
    }

    /// Two instants of a render, at both depths, opaque and transparent.
    @Test(arguments: [(Frame.Depth.eight, false), (.sixteen, true)])
    func twoInstantsDifferAsCompareSays(depth: Frame.Depth, transparent: Bool) throws {
        let scratch = Scratch()
        var preset = try Preset(builtIn: "aurora")
        if transparent { preset.background = .color(.clear) }
        let expected = try preset.frame(at: 0, width: 80, height: 45, depth: depth)
        let actual = try preset.frame(at: 0.5, width: 80, height: 45, depth: depth)
        let difference = try #require(actual.difference(from: expected))
        #expect(difference.score < 100 && difference.psnr.isFinite && difference.largestDifference > 0)
        try Self.expectSameAsCommand(
            difference, try Self.commandReport(expected: expected, actual: actual, in: scratch), scratch: scratch)
    }

    /// A frame with pixels changed at random by the seeded generator: exactly the changed
    /// pixels light up in the map, and the numbers are compare's.
    @Test func changedPixelsAreCountedAsCompareCountsThem() throws {
        let scratch = Scratch()
        let expected = try Preset(builtIn: "neon").frame(at: 2, width: 48, height: 27)
        var generator = SplitMix64(seed: 2604)
        var changed = Set<Int>()
        var pixels = expected.pixels
        pixels.withUnsafeMutableBytes { bytes in
            for _ in 0..<40 {
                let pixel = Int(generator.nextUnit() * Double(48 * 27)), lane = Int(generator.nextUnit() * 3)
                let step = UInt8(1 + generator.nextUnit() * 60)
                bytes[pixel * 4 + lane] = bytes[pixel * 4 + lane] &+ step
                changed.insert(pixel)
            }
        }
        let actual = Frame(pixels: pixels, time: expected.time, hasTransparency: false)
        let difference = try #require(actual.difference(from: expected))
        let lit = (0..<(48 * 27)).filter { pixel in difference.map.bytes[(4 * pixel)..<(4 * pixel + 3)] != [0, 0, 0] }
        #expect(Set(lit) == changed)
        try Self.expectSameAsCommand(
            difference, try Self.commandReport(expected: expected, actual: actual, in: scratch), scratch: scratch)
    }

    @Test func framesOfAnotherSizeAreNotMeasured() throws {
        let preset = try Preset(builtIn: "ocean")
        let small = try preset.frame(at: 0, width: 32, height: 18)
        let large = try preset.frame(at: 0, width: 64, height: 36)
        #expect(small.difference(from: large) == nil && large.difference(from: small) == nil)
    }
}
