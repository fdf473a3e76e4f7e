import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

extension EdgeMode: ExpressibleByArgument {}
extension ColorSpace: ExpressibleByArgument {}
extension MixingSpace: ExpressibleByArgument {}

/// Everything that picks the scene: a preset and the flags that override its keys.
struct SceneOptions: ParsableArguments {
    @Option(help: "A built-in preset name or a preset .json file. Default: the \"default\" preset.")
    var preset: String?

    @Option(help: help("colors"))
    var colors: String?

    @Option(help: help("highlights"))
    var highlights: String?

    @Option(
        help: ArgumentHelp(
            "Base blob colours from a file: a JSON list of colours, or one colour per line (the first word of "
                + "each line; what `fluidgradient palette` prints is such a file).",
            valueName: "FILE"))
    var palette: String?

    @Option(help: help("background"))
    var background: String?

    @Option(text: help("size"))
    var size: String?

    @Option(parsing: .unconditional, help: help("seed"), transform: number)
    var seed: UInt64?

    @Option(parsing: .unconditional, help: help("speed"), transform: number)
    var speed: Double?

    @Option(parsing: .unconditional, help: help("blur"), transform: number)
    var blur: Double?

    @Option(help: help("edges"))
    var edges: EdgeMode?

    @Option(parsing: .unconditional, help: help("pointScale"), transform: number)
    var pointScale: Double?

    @Option(help: help("colorSpace"))
    var colorSpace: ColorSpace?

    @Option(help: help("mixing"))
    var mixing: MixingSpace?

    @Option(parsing: .unconditional, help: help("fps"), transform: number)
    var fps: Double?

    @Flag(inversion: .prefixedNo, help: help("loop"))
    var loop: Bool?

    @Option(text: help("blobSize"))
    var blobSize: String?

    @Option(text: help("blobAspect"))
    var blobAspect: String?

    @Option(text: help("opacity"))
    var opacity: String?

    @Option(text: help("retargetInterval"))
    var retargetInterval: String?

    @OptionGroup var grain: GrainOptions

    /// Each number option's value, by preset key.
    private var numbers: [(key: String, value: Double?)] {
        [("speed", speed), ("blur", blur), ("pointScale", pointScale), ("fps", fps)]
    }

    /// Each range option's value, by preset key.
    private var ranges: [(key: String, value: String?)] {
        [
            ("blobSize", blobSize), ("blobAspect", blobAspect), ("opacity", opacity),
            ("retargetInterval", retargetInterval),
        ]
    }

    func validate() throws {
        if colors != nil && palette != nil {
            throw ValidationError("--colors and --palette both set the blob colours; give one")
        }
    }

    /// The preset named (or the default) with every given flag applied.
    func resolve() throws -> Preset {
        var preset = try PresetLibrary.load(self.preset ?? PresetLibrary.defaultName)
        if let palette {
            preset.colors = try readPalette(palette)
            preset.blobs = nil
        }
        try apply(to: &preset)
        return preset
    }

    /// A palette file's colours.
    ///
    /// - Throws: ``PresetError`` for what the file holds; ``FileError`` or
    ///   ``InterruptionError`` while reading it.
    private func readPalette(_ palette: String) throws -> [RGBA] {
        try PaletteFile.colors(try readFile(palette, what: "palette"), file: palette)
    }

    /// Applies every option given but `--preset` and `--palette` to `preset`.
    private func apply(to preset: inout Preset) throws(SceneOptionError) {
        if let colors {
            preset.colors = try parseColors(colors, option: "colors", allowEmpty: false)
            preset.blobs = nil
        }
        if let highlights {
            preset.highlights = try parseColors(highlights, option: "highlights", allowEmpty: true)
            preset.highlightBlobs = nil
        }
        if let background {
            do {
                preset.background = try Fill(parsing: background)
            } catch {
                throw SceneOptionError(option: "background", reason: .notAFill(error))
            }
        }
        if let size {
            guard let parsed = PresetLimits.parseSize(size) else {
                throw SceneOptionError(option: "size", reason: .notASize(size))
            }
            if let problem = PresetLimits.checkSize(width: parsed.width, height: parsed.height) {
                throw SceneOptionError(option: "size", reason: .unusableSize(problem))
            }
            (preset.width, preset.height) = parsed
        }
        if let seed {
            // A preset file holds seeds as JSON numbers, exact up to 2^53 − 1.
            guard Double(seed) <= PresetLimits.seed.upperBound else {
                throw SceneOptionError(option: "seed", reason: .seedTooLarge(seed))
            }
            preset.seed = seed
        }
        if let edges { preset.edges = edges }
        if let colorSpace { preset.colorSpace = colorSpace }
        if let mixing { preset.mixing = mixing }
        if let loop { preset.loop = loop }
        try applyNumbersAndRanges(to: &preset)
        try grain.apply(to: &preset)
    }

    /// Applies the number and range options, each held to its key's bounds.
    private func applyNumbersAndRanges(to preset: inout Preset) throws(SceneOptionError) {
        for (key, value) in numbers {
            let field = PresetSchema.field(key)
            guard let value, case .number(let keyPath, let bounds) = field.kind, let option = field.option
            else { continue }
            preset[keyPath: keyPath] = try check(value, option, bounds)
        }
        for (key, text) in ranges {
            let field = PresetSchema.field(key)
            guard let text, case .range(let keyPath, let bounds) = field.kind, let option = field.option
            else { continue }
            do {
                preset[keyPath: keyPath] = try ParameterRange(parsing: text, option: option, bounds: bounds)
            } catch {
                throw SceneOptionError(option: option, reason: .badRange(error))
            }
        }
    }
}

/// `value` when it is inside `bounds`.
///
/// - Parameters:
///   - value: the option's value.
///   - flag: the option, without its dashes.
///   - bounds: its allowed values.
/// - Returns: `value`.
/// - Throws: ``SceneOptionError`` (an input error) saying the value is outside `bounds`.
func check(_ value: Double, _ flag: String, _ bounds: ClosedRange<Double>) throws(SceneOptionError) -> Double {
    guard bounds.contains(value) else {
        throw SceneOptionError(option: flag, reason: .outOfRange(value, allowed: bounds))
    }
    return value
}

/// Colours from a comma-separated list.
///
/// - Parameters:
///   - text: the option's value.
///   - option: the option, without its dashes.
///   - allowEmpty: whether an empty list is allowed.
/// - Returns: the colours in order.
/// - Throws: ``SceneOptionError`` for an empty entry or list, too many colours or one that is not a colour.
func parseColors(_ text: String, option: String, allowEmpty: Bool) throws(SceneOptionError) -> [RGBA] {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let items =
        trimmed.isEmpty
        ? []
        : trimmed.splitOutsideParentheses(omittingEmpty: false) { $0 == "," }.map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
    if items.contains(where: \.isEmpty) { throw SceneOptionError(option: option, reason: .emptyColorEntry(text)) }
    if items.isEmpty && !allowEmpty { throw SceneOptionError(option: option, reason: .noColors) }
    guard items.count <= PresetLimits.colorCount.upperBound else {
        throw SceneOptionError(option: option, reason: .tooManyColors(items.count))
    }
    var colors: [RGBA] = []
    for item in items {
        do {
            colors.append(try RGBA(parsing: item))
        } catch {
            throw SceneOptionError(option: option, reason: .notAColor(error))
        }
    }
    return colors
}

/// The help of the option that overrides a preset key, from its field in the schema.
private func help(_ key: String) -> ArgumentHelp {
    let field = PresetSchema.field(key)
    return ArgumentHelp(field.help, valueName: field.valueName)
}

extension Option where Value == String? {
    /// An option that takes any text, parsed `.unconditional` (so that `--size -5x5`
    /// reaches the size check rather than being taken for an option), refusing what is
    /// plainly the next option: otherwise `--size --fps 30` takes `--fps` as the size
    /// and then calls `30` unexpected.
    init(text help: ArgumentHelp) {
        self.init(parsing: .unconditional, help: help) { text in
            if isNextOption(text) { throw OptionValueError.refuse(text, .nextOption) }
            return text
        }
    }
}
