import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

extension EdgeMode: ExpressibleByArgument {}

/// Everything that picks the scene: a preset and the flags that override its keys.
struct SceneOptions: ParsableArguments {
    @Option(help: "A built-in preset name or a preset .json file. Default: the \"default\" preset.")
    var preset: String?

    @Option(help: ArgumentHelp("Base blob colours, comma separated: hex (#RGB, #RRGGBB, #RRGGBBAA) or CSS names.", valueName: "C,C,..."))
    var colors: String?

    @Option(help: ArgumentHelp("Highlight blob colours (overlay blended), comma separated; --highlights \"\" removes the preset's.", valueName: "C,..."))
    var highlights: String?

    @Option(help: ArgumentHelp("Base blob colours from a file: a JSON list of colours, or one colour per line (the first word of each line; what `fluidgradient palette` prints is such a file).", valueName: "FILE"))
    var palette: String?

    @Option(help: ArgumentHelp("The background: \(FillParseError.syntax).", valueName: "FILL"))
    var background: String?

    @Option(text: ArgumentHelp("Frame size in pixels.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: "Random seed for the blob layout and motion (0 to 2^53 − 1).", transform: number)
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Tempo of the motion; 0 is a still scene (0...10).", transform: number)
    var speed: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Blur exponent e: sigma = p·(min(W,H)/p)^e pixels (0...1).", valueName: "E"), transform: number)
    var blur: Double?

    @Option(help: ArgumentHelp("What the blur sees beyond the frame: bleed (endless canvas), transparent (borders fade) or clamp (edge pixels repeat).", valueName: "MODE"))
    var edges: EdgeMode?

    @Option(parsing: .unconditional, help: ArgumentHelp("Point scale p of the blur size: 2 imitates a Retina screen (0.25...8).", valueName: "P"), transform: number)
    var pointScale: Double?

    @Option(parsing: .unconditional, help: "Frames per second (1...240).", transform: number)
    var fps: Double?

    @Flag(inversion: .prefixedNo, help: "Make the motion loop seamlessly over the render duration.")
    var loop: Bool?

    @Option(text: ArgumentHelp("Range of blob sizes s, the x radius in frame widths (bounds 0...4; in a preset file that leaves it out, 0.15...0.75).", valueName: "MIN...MAX[/STEP]"))
    var blobSize: String?

    @Option(text: ArgumentHelp("Range of blob aspects u: the y radius is s·max(W/H, 1)·u (bounds 0...16; in a preset file that leaves it out, 0.25...1.75).", valueName: "MIN...MAX[/STEP]"))
    var blobAspect: String?

    @Option(text: ArgumentHelp("Range of blob opacities (bounds 0...1; in a preset file that leaves it out, 0.5...1).", valueName: "MIN...MAX[/STEP]"))
    var opacity: String?

    @Option(text: ArgumentHelp("Range of seconds between retargets at speed 1 (bounds 0.05...600; in a preset file that leaves it out, 0.8...1.2).", valueName: "MIN...MAX[/STEP]"))
    var retargetInterval: String?

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
        if let speed { preset.speed = try check(speed, "speed", PresetLimits.speed) }
        if let blur { preset.blur = try check(blur, "blur", PresetLimits.blur) }
        if let edges { preset.edges = edges }
        if let pointScale { preset.pointScale = try check(pointScale, "point-scale", PresetLimits.pointScale) }
        if let fps { preset.fps = try check(fps, "fps", PresetLimits.fps) }
        if let loop { preset.loop = loop }
        preset.ranges.size = try range(blobSize, "blob-size", PresetLimits.blobSize) ?? preset.ranges.size
        preset.ranges.aspect = try range(blobAspect, "blob-aspect", PresetLimits.blobAspect) ?? preset.ranges.aspect
        preset.ranges.opacity = try range(opacity, "opacity", PresetLimits.opacity) ?? preset.ranges.opacity
        preset.ranges.retargetInterval =
            try range(retargetInterval, "retarget-interval", PresetLimits.retargetInterval) ?? preset.ranges.retargetInterval
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

/// A range flag's value, held to the rule a preset file's range is held to
/// (``ParameterRange/init(parsing:parameter:bounds:)``).
func range(_ text: String?, _ flag: String, _ bounds: ClosedRange<Double>) throws(CommandError) -> ParameterRange? {
    guard let text else { return nil }
    do {
        return try ParameterRange(parsing: text, option: flag, bounds: bounds)
    } catch {
        throw CommandError.input(error.description)
    }
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
