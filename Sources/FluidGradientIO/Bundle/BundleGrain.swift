import FluidGradient

/// The grain of a bundle (DESIGN section 12), shipped beside a grain-free loop rather than
/// baked into it, where it would defeat the encode size and multiply the bytes.
///
/// - `grain.png` is the layer of phase 0 at `c = 1`: 256×256, grey for mono grain, RGB
///   otherwise. The page lays it over the loop and the poster at `256·c` CSS pixels a tile
///   (one CSS pixel a frame pixel at `c = 1`) with `mix-blend-mode: overlay`, which is
///   DESIGN's overlay; at one CSS pixel a frame pixel the page shows the engine's frame.
/// - `grain-sprite.png`, for animated grain, holds the 8 phases' top-left
///   ``spriteCells``×``spriteCells`` cells, stacked: phase `p` in rows `p·128...`. The page
///   steps it up by a phase at the loop's frame rate with CSS `steps()`, so each band of
///   128 rows shows a phase of the definition; the phases cannot be locked to the video's
///   frames (CSS cannot see which frame a video shows), so animated grain matches in its
///   statistics, not pixel for pixel. The sprite repeats every 128 cells rather than 256,
///   a quarter of the bytes.
/// - With reduced motion the page shows `grain.png`, still: over the poster (frame 0)
///   that is the engine's frame 0.
package struct BundleGrain: Sendable {
    package static let tileFile = "grain.png"
    package static let spriteFile = "grain-sprite.png"
    /// The side, in cells, of each phase in the sprite.
    package static let spriteCells = 128

    /// The field at the display size.
    package let field: GrainField
    package let grain: Grain
    package let fps: Double

    /// The bundle's grain, or nil when the preset has none.
    package init?(preset: Preset) {
        guard let field = preset.frameSpec.grain else { return nil }
        self.field = field
        grain = preset.grain
        fps = preset.fps
    }

    /// Each file: its name, role and bytes.
    package func files() throws -> [(name: String, role: String, bytes: [UInt8])] {
        var files = [(Self.tileFile, "grain-tile", try tilePNG())]
        if field.animated { files.append((Self.spriteFile, "grain-sprite", try spritePNG())) }
        return files
    }

    /// Noise has nothing for a filter to predict or a match to find: no filter, and Huffman
    /// coding alone, which takes what there is, the values' uneven spread. At amount 0.08 a
    /// mono tile is 37.0 kB (zlib's default strategy 40.5 kB; the values' entropy 36.0 kB).
    private static let options: PNGOptions = {
        var options = PNGOptions()
        options.compressionLevel = 9
        options.filters = 0x08  // PNG_FILTER_NONE
        options.strategy = 2  // Z_HUFFMAN_ONLY
        return options
    }()

    /// `grain.png`: phase 0's tile.
    package func tilePNG() throws -> [UInt8] {
        let side = GrainField.tileCells
        return try PNGFile.data(
            samples: samples(field.tile(phase: 0), side: side, cells: side), width: side, height: side,
            channels: channels, options: Self.options)
    }

    /// `grain-sprite.png`: each phase's top-left cells, stacked.
    package func spritePNG() throws -> [UInt8] {
        let side = Self.spriteCells
        let phases = (0..<field.phases).flatMap {
            samples(field.tile(phase: $0), side: GrainField.tileCells, cells: side)
        }
        return try PNGFile.data(
            samples: phases, width: side, height: side * field.phases, channels: channels, options: Self.options)
    }

    private var channels: Int { field.mono ? 1 : 3 }

    /// The top-left `cells`×`cells` of a tile of side `side` (RGB triples), one sample a
    /// pixel for mono grain.
    private func samples(_ tile: [UInt8], side: Int, cells: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(cells * cells * channels)
        for y in 0..<cells {
            for x in 0..<cells {
                let at = (y * side + x) * 3
                out += field.mono ? [tile[at]] : [tile[at], tile[at + 1], tile[at + 2]]
            }
        }
        return out
    }

    /// The manifest's description of the grain.
    package var manifest: BundleManifest.GrainLayer {
        BundleManifest.GrainLayer(
            amount: grain.amount, size: grain.size, cellPixels: field.cellSize, animated: grain.animated,
            mono: grain.mono, tile: Self.tileFile, sprite: field.animated ? Self.spriteFile : nil,
            spriteCells: field.animated ? Self.spriteCells : nil)
    }
}
