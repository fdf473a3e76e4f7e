import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// A bundle's grain files and page (DESIGN section 12): the tile is the layer of phase 0,
/// the sprite each phase's top-left cells, and the page lays them with CSS overlay.
@Suite struct BundleGrainTests {
    static func preset(_ grain: Grain, fps: Double = 60) -> Preset {
        var preset = Preset(colors: [.white])
        preset.seed = 11
        preset.fps = fps
        preset.grain = grain
        return preset
    }

    /// The tile decodes to the field's phase 0 at `c = 1`, grey for mono grain and RGB
    /// otherwise, whatever the cell size (the page scales it); the sprite stacks each
    /// phase's top-left 128×128 cells.
    @Test(arguments: [true, false])
    func theFilesHoldTheField(mono: Bool) throws {
        let bundle = try #require(
            BundleGrain(preset: Self.preset(Grain(amount: 0.3, size: 2, animated: true, mono: mono))))
        let files = try bundle.files()
        #expect(files.map(\.name) == ["grain.png", "grain-sprite.png"])
        #expect(files.map(\.role) == ["grain-tile", "grain-sprite"])
        let field = GrainField(amount: 0.3, cellSize: 1, animated: true, mono: mono, seed: 11)
        let tile = try PNGFile.decode(files[0].bytes, name: "grain.png")
        #expect((tile.width, tile.height, tile.depth, tile.hasTransparency) == (256, 256, .eight, false))
        #expect(Self.rgb(tile) == field.tile(phase: 0))
        let decodedSprite = try PNGFile.decode(files[1].bytes, name: "grain-sprite.png")
        #expect((decodedSprite.width, decodedSprite.height) == (128, 1024))
        let sprite = Self.rgb(decodedSprite)
        for phase in [0, 5, 7] {
            let expected = field.tile(phase: phase)
            for (y, x) in [(0, 0), (17, 99), (127, 127)] {
                let at = ((phase * 128 + y) * 128 + x) * 3, from = (y * 256 + x) * 3
                #expect(Array(sprite[at..<(at + 3)]) == Array(expected[from..<(from + 3)]))
            }
        }
    }

    /// An 8-bit frame's RGB bytes, its alpha left out.
    static func rgb(_ frame: Frame) -> [UInt8] {
        frame.bytes.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
    }

    /// No grain, no files; still grain, the tile alone.
    @Test func stillGrainShipsTheTileAlone() throws {
        #expect(BundleGrain(preset: Self.preset(Grain(amount: 0, size: 3))) == nil)
        let still = try #require(BundleGrain(preset: Self.preset(Grain(amount: 0.08))))
        #expect(try still.files().map(\.name) == ["grain.png"])
        // A mono tile at amount 0.08: about 21 values, 4.4 bits each (BundleGrain's options).
        #expect(try still.tilePNG().count < 38_000)
        #expect(still.manifest.sprite == nil && still.manifest.cellPixels == 1)
    }

    /// The page lays the tile over the whole block with CSS overlay, at 256·c pixels a tile;
    /// animated grain steps the sprite at the loop's frame rate, and reduced motion shows the
    /// tile still.
    @Test func thePageLaysTheGrain() {
        let sources = [BundleSource(file: "loop-av1.mp4", type: "video/mp4")]
        let posters = [(file: "poster.jpg", type: "image/jpeg")]
        let still = BundlePage(
            title: "t", width: 640, height: 360, sources: sources, posters: posters,
            grain: PageGrain(cell: 1, animated: false, fps: 60)
        ).html
        #expect(still.contains("  .fluidgradient { isolation: isolate; }"))
        #expect(still.contains("mix-blend-mode: overlay;"))
        #expect(still.contains("background: url(\"grain.png\") 0 0 / 256px 256px repeat; image-rendering: pixelated;"))
        #expect(still.contains("</picture>\n  <div class=\"grain\" aria-hidden=\"true\"></div>\n</div>"))
        #expect(!still.contains("@keyframes"))
        let moving = BundlePage(
            title: "t", width: 640, height: 360, sources: sources, posters: posters,
            grain: PageGrain(cell: 1.5, animated: true, fps: 30)
        ).html
        #expect(moving.contains("url(\"grain.png\") 0 0 / 384px 384px"))
        #expect(moving.contains("background-image: url(\"grain-sprite.png\"); background-size: 192px 1536px;"))
        #expect(moving.contains("animation: fluidgradient-grain 0.266667s steps(8) infinite;"))
        #expect(moving.contains("@keyframes fluidgradient-grain { to { background-position: 0 -1536px; } }"))
        #expect(
            moving.contains(
                "animation: none; background-image: url(\"grain.png\"); background-size: 384px 384px;"))
        let plain = BundlePage(title: "t", width: 640, height: 360, sources: sources, posters: posters).html
        #expect(!plain.contains("grain") && !plain.contains("isolation"))
    }

    /// A transparent loop's grain goes to the player, which lays it in its shader.
    @Test func aTransparentPageHandsTheGrainToThePlayer() {
        let html = BundlePage(
            title: "t", width: 640, height: 360, sources: [BundleSource(file: "l.mp4", type: "video/mp4")],
            posters: [(file: "poster.png", type: "image/png")], player: "fluidgradient-player.js",
            grain: PageGrain(cell: 2, animated: true, fps: 60)
        ).html
        #expect(!html.contains("class=\"grain\"") && !html.contains("mix-blend-mode"))
        #expect(
            html.contains(
                "grain: { tile: 'grain.png', sprite: 'grain-sprite.png', spriteCells: 128, cell: 2, fps: 60, "
                    + "width: 640, height: 360 }"))
    }
}
