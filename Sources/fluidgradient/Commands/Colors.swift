import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

struct Colors: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colors",
        abstract: "Show colours as frames take them: in sRGB and in Display P3, gamut mapped where outside.",
        discussion: """
            Each COLOR is any colour a preset takes: #RGB, #RRGGBB, #RRGGBBAA, a CSS name, or CSS Color 4's \
            rgb(), hsl(), oklab(), oklch() or color(srgb | srgb-linear | display-p3 ...), with an optional \
            alpha. With no COLOR, one colour is read from each line of standard input.

            For each colour: whether it lies inside sRGB and inside Display P3, and its channels in each, as \
            hex and as 16-bit samples, after CSS Color 4's gamut mapping (OKLCH chroma reduction) where it lies \
            outside: the values an sRGB or a display-p3 frame (--color-space) is made of.

            Exit status: 0; 2 for a colour that cannot be read.

            Examples:
              fluidgradient colors 'oklch(63.7% 0.237 25.331)' 'color(display-p3 0 1 0)'
              fluidgradient colors --json < palette.txt
            """)

    @Argument(help: "Colours to show; one per line of standard input when none are given.")
    var colors: [String] = []

    @Flag(help: "Print a JSON list of { \"color\", \"alpha\", \"srgb\", \"displayP3\" }.")
    var json = false

    func run() throws {
        var texts = colors
        if texts.isEmpty {
            while let line = readLine() {
                if !line.trimmingSpaces().isEmpty { texts.append(line) }
            }
        }
        var entries: [JSONNode] = []
        for text in texts {
            let color: RGBA
            do {
                color = try RGBA(parsing: text)
            } catch {
                throw CommandError.input(error.description)
            }
            if json {
                entries.append(JSONNode(Colors.jsonValue(color)))
            } else {
                print(Colors.line(color))
            }
        }
        if json { print(JSONValue.array(entries).serialized()) }
    }

    /// The colour in `space`: its 16-bit samples and whether it was inside.
    static func samples(_ color: RGBA, in space: ColorSpace) -> (samples: [Int], inside: Bool, hex: String) {
        let mapped = color.inColorSpace(space)
        let inside = color.isInside(space)
        let channels = [mapped.red, mapped.green, mapped.blue]
        let hex = RGBA(red: mapped.red, green: mapped.green, blue: mapped.blue).hex
        return (channels.map { Int(($0 * 65535).rounded()) }, inside, hex)
    }

    static func line(_ color: RGBA) -> String {
        var parts = [color.text]
        for (name, space) in [("sRGB", ColorSpace.srgb), ("display-p3", .displayP3)] {
            let (_, inside, hex) = samples(color, in: space)
            parts.append("\(name) \(hex) (\(inside ? "inside" : "gamut mapped"))")
        }
        if color.alpha < 1 { parts.append("alpha \(ParameterRange.format(color.alpha))") }
        return parts.joined(separator: "  ")
    }

    static func jsonValue(_ color: RGBA) -> JSONValue {
        func space(_ space: ColorSpace) -> JSONNode {
            let (samples, inside, hex) = Colors.samples(color, in: space)
            return JSONNode(
                .object([
                    ("inside", JSONNode(.bool(inside))), ("hex", JSONNode(.string(hex))),
                    ("samples", JSONNode(.array(samples.map { JSONNode(.number(Double($0))) }))),
                ]))
        }
        return .object([
            ("color", JSONNode(.string(color.text))), ("alpha", JSONNode(.number(color.alpha))),
            ("srgb", space(.srgb)), ("displayP3", space(.displayP3)),
        ])
    }
}
