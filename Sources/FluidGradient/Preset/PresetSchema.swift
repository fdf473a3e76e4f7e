import Foundation

/// Every key of a preset file, in the order files are read and written and errors list
/// them. Adding a key is adding a field here (and its use in the engine); the decoder,
/// ``Preset/validate()``, the encoder, the command line's options, a batch manifest's
/// allowed keys and `presets show` all follow this list.
package enum PresetSchema {
    package static let fields: [PresetField] = [
        PresetField(key: "name", kind: .text(\.name), doc: "The preset's name", manifest: .none),
        PresetField(
            key: "description", kind: .text(\.description), doc: "One line about the preset", manifest: .palette),
        PresetField(
            key: "colors", kind: .colors, option: "colors",
            doc: "Base blob colours, comma separated: hex (#RGB, #RRGGBB, #RRGGBBAA), CSS names, or CSS Color 4's "
                + "rgb(), hsl(), oklab(), oklch() and color(srgb | srgb-linear | display-p3 ...)",
            valueName: "C,C,...", manifest: .palette),
        PresetField(
            key: "highlights", kind: .highlights, option: "highlights",
            doc: "Highlight blob colours (overlay blended), comma separated; --highlights \"\" removes the preset's",
            valueName: "C,..."),
        PresetField(
            key: "background", kind: .background, option: "background",
            doc: "The background: \(FillParseError.syntax)", valueName: "FILL"),
        PresetField(
            key: "speed", kind: .number(\.speed, bounds: PresetLimits.speed), option: "speed",
            doc: "Tempo of the motion; 0 is a still scene",
            display: .init(label: "speed", rank: 4) { format($0.speed) }),
        PresetField(
            key: "blur", kind: .number(\.blur, bounds: PresetLimits.blur), option: "blur",
            doc: "Blur exponent e: sigma = p·(min(W,H)/p)^e pixels", valueName: "E",
            display: .init(label: "blur", rank: 5) {
                "\(format($0.blur)) (sigma \(String(format: "%.1f", $0.frameSpec.sigma)) px at this size)"
            }),
        PresetField(
            key: "seed", kind: .seed, option: "seed",
            doc: "Random seed for the blob layout and motion (0 to 2^53 − 1)",
            display: .init(label: "seed", rank: 8) { String($0.seed) }),
        range(
            "blobSize", \.ranges.size, PresetLimits.blobSize, option: "blob-size", rank: 9,
            doc: "Range of blob sizes s, the x radius in frame widths"),
        range(
            "blobAspect", \.ranges.aspect, PresetLimits.blobAspect, option: "blob-aspect", rank: 10,
            doc: "Range of blob aspects u: the y radius is s·max(W/H, 1)·u"),
        range(
            "opacity", \.ranges.opacity, PresetLimits.opacity, option: "opacity", rank: 11,
            doc: "Range of blob opacities"),
        range(
            "retargetInterval", \.ranges.retargetInterval, PresetLimits.retargetInterval,
            option: "retarget-interval", rank: 12, label: "retarget", unit: " s",
            doc: "Range of seconds between retargets at speed 1"),
        PresetField(
            key: "edges", kind: .edges, option: "edges",
            doc: "What the blur sees beyond the frame: bleed (endless canvas), transparent (borders fade) "
                + "or clamp (edge pixels repeat)",
            valueName: "MODE", display: .init(label: "edges", rank: 7) { $0.edges.rawValue }),
        PresetField(
            key: "colorSpace", kind: .colorSpace, option: "color-space",
            doc: "The colour space frames are written in, and tagged with: srgb or display-p3; colours outside it "
                + "are gamut mapped as CSS Color 4 does",
            valueName: "SPACE", display: .init(label: "colorSpace", rank: 14) { $0.colorSpace.rawValue }),
        PresetField(
            key: "mixing", kind: .mixing, option: "mixing",
            doc: "The space the layers are composited and blurred in: srgb (encoded values, the default), "
                + "linear (linear light) or oklab",
            valueName: "SPACE", display: .init(label: "mixing", rank: 15) { $0.mixing.rawValue }),
        PresetField(
            key: "size", kind: .size, option: "size", doc: "Frame size in pixels", valueName: "WxH", manifest: .none,
            display: .init(label: "size", rank: 0) { "\($0.width)x\($0.height)" }),
        PresetField(
            key: "fps", kind: .number(\.fps, bounds: PresetLimits.fps), option: "fps", doc: "Frames per second",
            display: .init(label: "fps", rank: 1) { format($0.fps) }),
        PresetField(
            key: "duration", kind: .number(\.duration, bounds: PresetLimits.duration), option: "duration",
            doc: "Length of a sequence or video in seconds",
            display: .init(label: "duration", rank: 2) { "\(format($0.duration)) s (\($0.frameCount) frames)" }),
        PresetField(
            key: "loop", kind: .boolean(\.loop), option: "loop",
            doc: "Make the motion loop seamlessly over the render duration",
            display: .init(label: "loop", rank: 3) { $0.loop ? "yes" : "no" }),
        PresetField(
            key: "pointScale", kind: .number(\.pointScale, bounds: PresetLimits.pointScale), option: "point-scale",
            doc: "Point scale p of the blur size: 2 imitates a Retina screen", valueName: "P",
            display: .init(label: "pointScale", rank: 6) { format($0.pointScale) }),
        PresetField(key: "blobs", kind: .blobs, doc: "Explicit base blobs", manifest: .palette),
        PresetField(key: "highlightBlobs", kind: .highlightBlobs, doc: "Explicit highlight blobs", manifest: .palette),
        PresetField(
            key: "grain", kind: .grain, option: "grain",
            doc: "Grain amount (\(ParameterRange(PresetLimits.grainAmount))): an exactly defined noise layer "
                + "overlaid after the background; 0 is none",
            valueName: "AMOUNT", display: .init(label: "grain", rank: 13) { $0.grain.summary }),
    ]

    /// The field of `key`, which must be one of ``fields``.
    ///
    /// - Parameter key: a preset file's key, such as `blobSize`.
    /// - Returns: its field.
    package static func field(_ key: String) -> PresetField {
        guard let field = fields.first(where: { $0.key == key }) else { preconditionFailure("no preset key \(key)") }
        return field
    }

    private static func format(_ value: Double) -> String { ParameterRange.format(value) }

    /// A range key: a `MIN...MAX[/STEP]` option, shown as `min...max` with `unit` after it.
    private static func range(
        _ key: String, _ keyPath: WritableKeyPath<Preset, ParameterRange> & Sendable, _ bounds: ClosedRange<Double>,
        option: String, rank: Int, label: String? = nil, unit: String = "", doc: String
    ) -> PresetField {
        PresetField(
            key: key, kind: .range(keyPath, bounds: bounds), option: option, doc: doc, valueName: "MIN...MAX[/STEP]",
            display: .init(label: label ?? key, rank: rank) { $0[keyPath: keyPath].description + unit })
    }
}

extension Preset {
    /// Every key a preset file may hold, in the order `presets show --json` writes them.
    package static let keys = PresetSchema.fields.map(\.key)
}
