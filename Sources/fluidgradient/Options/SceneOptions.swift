import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

extension EdgeMode: ExpressibleByArgument {}

/// Everything that picks the scene: a preset and the flags that override its keys.
struct SceneOptions: ParsableArguments {
    @Option(help: "A built-in preset name or a preset .json file. Default: the \"default\" preset.")
    var preset: String?

    @Option(help: help("colors"))
    var colors: String?

    @Option(help: help("highlights"))
    var highlights: String?

    @Option(help: ArgumentHelp("Base blob colours from a file: a JSON list of colours, or one colour per line (the first word of each line; what `fluidgradient palette` prints is such a file).", valueName: "FILE"))
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
        if let colors {
            preset.colors = try parseColors(colors, flag: "colors", allowEmpty: false)
            preset.blobs = nil
        }
        if let palette {
            do {
                preset.colors = try PaletteFile.colors(try readFile(palette, what: "palette"), file: palette)
            } catch let error as PresetError {
                throw CommandError.input(error.description)
            }
            preset.blobs = nil
        }
        if let highlights {
            preset.highlights = try parseColors(highlights, flag: "highlights", allowEmpty: true)
            preset.highlightBlobs = nil
        }
        if let background {
            do {
                preset.background = try Fill(parsing: background)
            } catch {
                throw CommandError.input("--background: \(error.description)")
            }
        }
        if let size {
            guard let parsed = PresetLimits.parseSize(size) else {
                throw CommandError.input("--size: \"\(size)\" is not a size; expected WIDTHxHEIGHT such as 1920x1080")
            }
            if let problem = PresetLimits.checkSize(width: parsed.width, height: parsed.height) {
                throw CommandError.input("--size: \(problem.description)")
            }
            (preset.width, preset.height) = parsed
        }
        if let seed {
            // A preset file holds seeds as JSON numbers, exact up to 2^53 − 1.
            guard Double(seed) <= PresetLimits.seed.upperBound else {
                throw CommandError.input("--seed: \(seed) is outside the allowed 0...\(ParameterRange.format(PresetLimits.seed.upperBound)) (what a preset file holds exactly)")
            }
            preset.seed = seed
        }
        if let edges { preset.edges = edges }
        if let loop { preset.loop = loop }
        for (key, value) in numbers {
            guard let value, case .number(let keyPath, let bounds) = PresetSchema.field(key).kind else { continue }
            preset[keyPath: keyPath] = try check(value, PresetSchema.field(key).option!, bounds)
        }
        for (key, text) in ranges {
            guard let text, case .range(let keyPath, let bounds) = PresetSchema.field(key).kind else { continue }
            preset[keyPath: keyPath] = try ParameterRange(flag: PresetSchema.field(key).option!, text, bounds: bounds)
        }
        return preset
    }
}

func check(_ value: Double, _ flag: String, _ bounds: ClosedRange<Double>) throws(CommandError) -> Double {
    guard bounds.contains(value) else {
        throw CommandError.input(
            "--\(flag): \(ParameterRange.format(value)) is outside the allowed \(ParameterRange.format(bounds.lowerBound))...\(ParameterRange.format(bounds.upperBound))")
    }
    return value
}

/// Colours from a comma-separated list.
func parseColors(_ text: String, flag: String, allowEmpty: Bool) throws(CommandError) -> [RGBA] {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let items = trimmed.isEmpty ? [] : trimmed.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
    if items.contains(where: \.isEmpty) {
        throw CommandError.input("--\(flag): \"\(text)\" has an empty entry; separate colours with single commas, such as \"#0F766E,teal\"")
    }
    if items.isEmpty && !allowEmpty {
        throw CommandError.input("--\(flag): give at least one colour, such as \"#0F766E,teal\"")
    }
    guard items.count <= PresetLimits.colorCount.upperBound else {
        throw CommandError.input("--\(flag): at most \(PresetLimits.colorCount.upperBound) colours, got \(items.count)")
    }
    var colors: [RGBA] = []
    for item in items {
        do {
            colors.append(try RGBA(parsing: item))
        } catch {
            throw CommandError.input("--\(flag): \(error.description)")
        }
    }
    return colors
}

extension ParameterRange {
    /// A range option's value, held to the rule a preset file's range is held to
    /// (``ParameterRange/init(parsing:option:bounds:)``).
    init(flag: String, _ text: String, bounds: ClosedRange<Double>) throws(CommandError) {
        do {
            self = try ParameterRange(parsing: text, option: flag, bounds: bounds)
        } catch {
            throw CommandError.input(error.description)
        }
    }
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
