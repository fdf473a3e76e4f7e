import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Palette: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "palette",
        abstract: "Extract an image's prominent colours, or turn them into a ready preset.",
        discussion: """
            The colours are found by k-means clustering in OKLab (a perceptual colour space), with a fixed \
            seed, so an image always gives the same palette. Pixels under 50% opacity are ignored; the others \
            count fully. An image over 65,536 pixels is sampled on a regular grid of about that many, so its \
            shares are estimates.

            With --preset-out, every colour becomes a blob, largest first; a darkened version of the darkest \
            colour becomes the background, and a lifted version of the most vivid one covering at least a tenth \
            of the image the highlight (a small accent would wash every frame in its colour).

            What it prints, as text or JSON, is a palette file for render --palette, which keeps the \
            preset's other settings.

            Examples:
              fluidgradient palette photo.png
              fluidgradient palette photo.png -n 6 --preset-out photo.json
              fluidgradient render --preset photo.json -o photo-gradient.mp4
              fluidgradient palette photo.png > photo.txt
              fluidgradient render --preset aurora --palette photo.txt -o photo-aurora.mp4
            """
    )

    @Argument(help: "A PNG image.")
    var image: String

    @Option(
        name: .short, parsing: .unconditional,
        help: "The most colours to find (1...16); an image with fewer distinct colours gives fewer.", transform: number)
    var n: Int = 5

    @Option(help: ArgumentHelp("Write a preset built from the palette to this .json file.", valueName: "FILE"))
    var presetOut: String?

    @Option(help: "The preset's name (default: the image's file name).")
    var name: String?

    @Flag(help: "Print the palette as JSON.")
    var json = false

    func validate() throws {
        let allowed = PresetLimits.paletteCount
        guard allowed.contains(n) else {
            throw ValidationError("-n must be \(allowed.lowerBound) to \(allowed.upperBound), not \(n)")
        }
    }

    func run() throws {
        let swatches = try PNGFile.read(image).swatches(count: n)
        guard !swatches.isEmpty else {
            throw CommandError.input("\(image) has no opaque pixels to take colours from")
        }
        if let presetOut {
            let stem = URL(fileURLWithPath: image).deletingPathExtension().lastPathComponent
            let preset = Preset(
                palette: swatches, name: name ?? stem,
                description: "Colours of \(URL(fileURLWithPath: image).lastPathComponent)")
            try AtomicFile.write(Array(preset.jsonText.utf8), to: presetOut, suggestedExtension: "json")
        }
        if json {
            let entries = swatches.map { swatch in
                JSONNode(
                    .object([
                        ("color", JSONNode(.string(swatch.color.hex))),
                        ("share", JSONNode(.number((swatch.share * 10_000).rounded() / 10_000))),
                    ]))
            }
            print(JSONValue.array(entries).serialized())
            return
        }
        let describer = PresetDescription(preset: Preset(colors: []), swatches: Terminal.supportsTrueColor)
        // Pad by the visible width: swatches add escape codes of varying length.
        let plain = PresetDescription(preset: describer.preset, swatches: false)
        for swatch in swatches {
            let visible = plain.describe(swatch.color).count
            print(
                describer.describe(swatch.color) + String(repeating: " ", count: max(0, 30 - visible))
                    + String(format: "%5.1f%%", swatch.share * 100))
        }
        if let presetOut { printError("wrote preset \(presetOut)") }
    }
}
