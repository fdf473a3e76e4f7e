import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// `Frame.palette(count:)` is what `fluidgradient palette` prints for the same image.
@Suite struct FramePaletteTests {
    /// The colours `palette IMAGE -n COUNT --json` prints, in order.
    static func commandPalette(_ image: String, count: Int) throws -> [String] {
        let result = run(["palette", image, "-n", "\(count)", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        return entries.compactMap { $0["color"] as? String }
    }

    @Test func flatBandsGiveTheCommandsColours() throws {
        let scratch = Scratch()
        let image = try PaletteCommandTests.bands(in: scratch)
        let frame = try Frame(pngData: Data(contentsOf: URL(fileURLWithPath: image)))
        #expect(try frame.palette(count: 3).map(\.description) == ["#E63946", "#1D3557", "#F1FAEE"])
        #expect(try frame.palette(count: 3).map(\.description) == (try Self.commandPalette(image, count: 3)))
    }

    /// Renders at both depths, opaque and transparent, one over 65,536 pixels (sampled
    /// on a grid), at every count from the seeded generator's choice.
    @Test(arguments: [(Frame.Depth.eight, false), (.sixteen, false), (.eight, true), (.sixteen, true)])
    func aRenderGivesTheCommandsColours(depth: Frame.Depth, transparent: Bool) throws {
        let scratch = Scratch()
        var generator = SplitMix64(seed: transparent ? 51 : 52)
        var preset = try Preset(builtIn: Preset.builtInNames[Int(generator.nextUnit() * 12) % 12])
        if transparent {
            // Opaque blobs, so that some pixels are at least half opaque.
            preset.background = .color(.clear)
            preset.ranges.opacity = ParameterRange(0.9, 1)
        }
        let frame = try preset.frame(at: 1.25, width: 400, height: 225, depth: depth)
        let path = scratch.file("frame.png")
        try frame.pngData().write(to: URL(fileURLWithPath: path))
        let count = 1 + Int(generator.nextUnit() * 16)
        let palette = try Frame(pngData: Data(contentsOf: URL(fileURLWithPath: path))).palette(count: count)
        #expect(!palette.isEmpty)
        #expect(palette.map(\.description) == (try Self.commandPalette(path, count: count)), "\(preset.name) \(count)")
        #expect(try frame.palette(count: count) == palette)
    }

    @Test func aCountOutsideTheCommandsBoundsThrows() throws {
        let frame = try Preset(builtIn: "aurora").frame(at: 0, width: 16, height: 9)
        for count in [0, -1, 17, Int.max] {
            #expect(throws: PaletteError.countOutOfRange(count: count, allowed: 1...16)) {
                try frame.palette(count: count)
            }
            #expect(PaletteError.countOutOfRange(count: count, allowed: 1...16).description.contains("\(count)"))
        }
        #expect(try frame.palette(count: 16).count <= 16)
    }

    @Test func aFrameWithNothingHalfOpaqueHasNoColours() throws {
        var preset = Preset(colors: [.white])
        preset.background = .color(.clear)
        preset.ranges.opacity = ParameterRange(0.1, 0.2)
        let frame = try preset.frame(at: 0, width: 32, height: 18)
        #expect(try frame.palette(count: 5) == [])
    }
}
