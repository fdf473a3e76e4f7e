import FluidGradient
import Testing

/// The one table of preset keys: its order is the file contract's, and what it derives
/// (help, manifest keys, `presets show`) reads as it did when written by hand.
@Suite struct PresetSchemaTests {
    @Test func listsEveryKeyOnceInFileOrder() {
        #expect(
            Preset.keys == [
                "name", "description", "colors", "highlights", "background", "speed", "blur", "seed",
                "blobSize", "blobAspect", "opacity", "retargetInterval", "edges", "colorSpace", "mixing", "size",
                "fps", "duration", "loop", "pointScale", "blobs", "highlightBlobs", "grain",
            ])
        let ranks = PresetSchema.fields.compactMap(\.display?.rank)
        #expect(Set(ranks).count == ranks.count)
    }

    @Test func helpGivesTheBoundsAndARangesDefault() {
        #expect(PresetSchema.field("speed").help == "Tempo of the motion; 0 is a still scene (0...10).")
        #expect(
            PresetSchema.field("blobSize").help
                == "Range of blob sizes s, the x radius in frame widths "
                + "(bounds 0...4; in a preset file that leaves it out, 0.15...0.75)."
        )
        #expect(PresetSchema.field("size").help == "Frame size in pixels.")
        #expect(
            PresetSchema.field("grain").help
                == "Grain amount (0...1): an exactly defined noise layer overlaid after the background; 0 is none.")
    }

    /// Each key written away from its default reads back to the same preset.
    @Test func everyKeyRoundTripsAwayFromItsDefault() throws {
        var preset = Preset(colors: [.white], highlights: [.black])
        preset.name = "all"
        preset.description = "every key"
        preset.background = .color(RGBA(bytes: 1, 2, 3))
        (preset.speed, preset.blur, preset.seed, preset.fps, preset.duration) = (0.5, 0.4, 9, 24, 3)
        preset.ranges.size = ParameterRange(0.2, 0.3, step: 0.05)
        preset.ranges.aspect = ParameterRange(0.5, 1)
        preset.ranges.opacity = ParameterRange(0.6, 0.9)
        preset.ranges.retargetInterval = ParameterRange(2, 3)
        (preset.edges, preset.width, preset.height, preset.loop, preset.pointScale) = (.clamp, 64, 36, true, 2)
        (preset.colorSpace, preset.mixing) = (.displayP3, .oklab)
        preset.blobs = [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0.2, 0.3), opacity: 0.5)]
        preset.highlightBlobs = []
        preset.grain = Grain(amount: 0.1, size: 2, animated: true, mono: false)
        try preset.validate()
        guard case .object(let members) = preset.jsonValue else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == Preset.keys)
        #expect(try Preset(json: Array(preset.jsonText.utf8), file: "all.json") == preset)
    }
}
