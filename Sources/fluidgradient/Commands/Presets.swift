import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the built-in presets, or show one.",
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the built-in presets with their descriptions.")

        @Flag(help: "Print a JSON list of { \"name\", \"description\" }.")
        var json = false

        func run() throws {
            let names = PresetLibrary.names
            let descriptions = try names.map { try PresetLibrary.builtIn($0).description }
            if json {
                let entries = zip(names, descriptions).map { name, description in
                    JSONNode(
                        .object([("name", JSONNode(.string(name))), ("description", JSONNode(.string(description)))]))
                }
                print(JSONValue.array(entries).serialized())
                return
            }
            let width = names.map(\.count).max() ?? 0
            for (name, description) in zip(names, descriptions) {
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + description)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a preset's settings and colours (hex and 0-255 channels).",
            discussion: """
                NAME is a built-in preset or a .json file. Swatches appear when stdout is a true-colour terminal \
                (COLORTERM=truecolor) and NO_COLOR is not set.

                With --json it prints the preset as a preset file (settings at their defaults left out), to start \
                your own from:
                  fluidgradient presets show aurora --json > mine.json
                """)

        @Argument(help: "A built-in preset name or a preset file.")
        var name: String

        @Flag(help: "Print the preset as a preset file (JSON), which --preset reads back.")
        var json = false

        func run() throws {
            let preset = try PresetLibrary.load(name)
            if json {
                print(preset.jsonText, terminator: "")
                return
            }
            print(PresetDescription(preset: preset, swatches: Terminal.supportsTrueColor).text)
        }
    }
}

enum Terminal {
    static var supportsTrueColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        // NO_COLOR (no-color.org): set to anything non-empty, no colour at all.
        return isatty(1) != 0 && (colorTerm == "truecolor" || colorTerm == "24bit")
            && (environment["NO_COLOR"] ?? "").isEmpty
    }
}

/// A preset laid out for people: one setting per line, each colour as hex and channels.
struct PresetDescription {
    let preset: Preset
    let swatches: Bool

    var text: String {
        // A file's name and description are shown, never acted on (an escape sequence in them).
        var lines = [oneLine(preset.description.isEmpty ? preset.name : "\(preset.name): \(preset.description)")]
        func add(_ key: String, _ value: String) {
            lines.append(value.isEmpty ? key : key.padding(toLength: 14, withPad: " ", startingAt: 0) + value)
        }
        func addBlobs(_ key: String, _ blobs: [Blob]) {
            add(key, "")
            lines += blobs.map {
                "  " + describe($0.color) + "  center \(pair($0.center)) radius \(pair($0.radius))"
                    + " opacity \(ParameterRange.format($0.opacity))"
            }
        }
        // Explicit blobs replace the colours they would be drawn from, so only what renders is shown.
        if let blobs = preset.blobs {
            addBlobs("blobs", blobs)
        } else {
            add("colors", "")
            lines += preset.colors.map { "  " + describe($0) }
        }
        if let blobs = preset.highlightBlobs {
            addBlobs("highlightBlobs", blobs)
        } else {
            add("highlights", preset.highlights.isEmpty ? "none" : "")
            lines += preset.highlights.map { "  " + describe($0) }
        }
        switch preset.background {
        case .color(let color):
            add("background", describe(color))
        case .gradient(let gradient):
            let space = gradient.interpolation == .srgb ? "" : " in \(gradient.interpolation.rawValue)"
            add("background", "\(gradient.kind.rawValue) gradient at \(ParameterRange.format(gradient.angle))°\(space)")
            lines += gradient.stops.map { "  " + describe($0.color) + "  at \(ParameterRange.format($0.location))" }
        }
        for display in PresetSchema.fields.compactMap(\.display).sorted(by: { $0.rank < $1.rank }) {
            add(display.label, display.text(preset))
        }
        return lines.joined(separator: "\n")
    }

    /// The colour as written (hex, or the CSS function it was read from), then its sRGB
    /// bytes; a colour outside sRGB says so, with the bytes of its gamut-mapped sRGB.
    func describe(_ color: RGBA) -> String {
        let b = color.inColorSpace(.srgb).bytes
        let written = color.written.map { $0 + "  " } ?? color.hex.padding(toLength: 10, withPad: " ", startingAt: 0)
        var text =
            written + "rgb(\(b.red), \(b.green), \(b.blue))" + (b.alpha == 255 ? "" : " alpha \(b.alpha)")
            + (color.isInsideSRGB
                ? "" : color.isInside(.displayP3) ? " (outside sRGB, inside display-p3)" : " (outside display-p3)")
        if swatches { text = "\u{1B}[48;2;\(b.red);\(b.green);\(b.blue)m    \u{1B}[0m " + text }
        return text
    }

    func pair(_ value: SIMD2<Double>) -> String {
        "[\(ParameterRange.format(value.x)), \(ParameterRange.format(value.y))]"
    }
}
