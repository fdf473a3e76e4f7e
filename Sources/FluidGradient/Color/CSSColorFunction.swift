import Foundation

/// CSS Color 4's functional notations: `rgb()` and `rgba()` (with spaces or with
/// commas), `hsl()` and `hsla()`, `oklab()`, `oklch()` and
/// `color(srgb | srgb-linear | display-p3 …)`, each with an optional alpha.
///
/// Ranges follow CSS: `rgb()`'s channels and every alpha are clamped, as are HSL's
/// saturation and lightness, OKLab's and OKLCH's lightness and OKLCH's chroma below 0;
/// `oklab()`, `oklch()` and `color()` may name colours outside sRGB, which keep their
/// extended sRGB values.
enum CSSColorFunction {
    /// The function names this parser reads.
    static let names = ["rgb", "rgba", "hsl", "hsla", "oklab", "oklch", "color"]

    /// The predefined spaces `color()` takes here.
    static let spaces = ["srgb", "srgb-linear", "display-p3"]

    /// The colour a functional notation names, as extended sRGB with straight alpha.
    ///
    /// - Parameter text: the notation, trimmed, with a `(` in it.
    /// - Returns: the colour.
    /// - Throws: the part at fault, quoted, and what was expected there.
    static func parse(_ text: String) throws(CSSColorProblem) -> RGBA {
        guard let open = text.firstIndex(of: "(") else { throw CSSColorProblem("expected a function such as rgb()") }
        let name = text[..<open].lowercased()
        guard names.contains(name) else {
            throw CSSColorProblem(
                "\(text[..<open])() is not a colour function; expected "
                    + PresetError.list(names.map { $0 + "()" }))
        }
        guard text.hasSuffix(")") else { throw CSSColorProblem("expected \")\" at the end") }
        let body = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let arguments = try CSSArguments(body, function: name)
        let channels: SIMD3<Double>
        switch name {
        case "rgb", "rgba": channels = try rgb(arguments)
        case "hsl", "hsla": channels = try hsl(arguments)
        case "oklab": channels = try okLab(arguments)
        case "oklch": channels = try okLCH(arguments)
        default: channels = try color(arguments)
        }
        let alpha = try arguments.alpha.map { (token) throws(CSSColorProblem) in
            try token.value(percent: 1, what: "an alpha (0 to 1, or a percentage)")
        }
        return RGBA(
            red: channels.x, green: channels.y, blue: channels.z, alpha: min(max(alpha ?? 1, 0), 1), written: text)
    }

    private static func rgb(_ arguments: CSSArguments) throws(CSSColorProblem) -> SIMD3<Double> {
        let values = try arguments.three("rgb")
        if arguments.legacy {
            let percents = values.map(\.isPercent)
            guard percents.allSatisfy({ $0 == percents[0] }) else {
                throw CSSColorProblem("with commas, rgb() takes three numbers or three percentages, not both")
            }
        }
        var channels = SIMD3<Double>.zero
        for index in 0..<3 {
            let value = try values[index].value(percent: 255, what: "a channel (0 to 255, or a percentage)")
            channels[index] = min(max(value, 0), 255) / 255
        }
        return channels
    }

    private static func hsl(_ arguments: CSSArguments) throws(CSSColorProblem) -> SIMD3<Double> {
        let values = try arguments.three("hsl")
        let hue = try values[0].hue()
        let what = "a percentage"
        if arguments.legacy, !values[1].isPercent || !values[2].isPercent {
            throw CSSColorProblem("\"\(values[values[1].isPercent ? 2 : 1].text)\" is not \(what)")
        }
        let saturation = try values[1].value(percent: 100, what: what)
        let lightness = try values[2].value(percent: 100, what: what)
        return ColorMath.srgb(
            hue: hue, saturation: min(max(saturation, 0), 100) / 100, lightness: min(max(lightness, 0), 100) / 100)
    }

    private static func okLab(_ arguments: CSSArguments) throws(CSSColorProblem) -> SIMD3<Double> {
        let values = try arguments.three("oklab")
        let lightness = try values[0].value(percent: 1, what: "a lightness (0 to 1, or a percentage)")
        let a = try values[1].value(percent: 0.4, what: "a number (100% is 0.4)")
        let b = try values[2].value(percent: 0.4, what: "a number (100% is 0.4)")
        return srgb(okLab: SIMD3(min(max(lightness, 0), 1), a, b))
    }

    private static func okLCH(_ arguments: CSSArguments) throws(CSSColorProblem) -> SIMD3<Double> {
        let values = try arguments.three("oklch")
        let lightness = try values[0].value(percent: 1, what: "a lightness (0 to 1, or a percentage)")
        let chroma = try values[1].value(percent: 0.4, what: "a chroma (a number, 100% is 0.4)")
        let hue = try values[2].hue()
        let lch = SIMD3(min(max(lightness, 0), 1), max(chroma, 0), hue)
        return srgb(okLab: ColorMath.okLab(okLCH: lch))
    }

    private static func color(_ arguments: CSSArguments) throws(CSSColorProblem) -> SIMD3<Double> {
        guard let space = arguments.space else {
            throw CSSColorProblem("color() needs a colour space first: " + PresetError.list(spaces))
        }
        guard spaces.contains(space.lowercased()) else {
            throw CSSColorProblem(
                "\"\(space)\" is not a colour space color() takes here; expected " + PresetError.list(spaces))
        }
        let values = try arguments.three("color")
        var channels = SIMD3<Double>.zero
        for index in 0..<3 {
            channels[index] = try values[index].value(percent: 1, what: "a number (or a percentage)")
        }
        switch space.lowercased() {
        case "srgb": return channels
        case "srgb-linear": return ColorMath.encoded(channels)
        default: return ColorMath.encoded(ColorMath.linearP3ToLinearSRGB(ColorMath.linear(channels)))
        }
    }

    /// OKLab to gamma-encoded, extended sRGB.
    private static func srgb(okLab: SIMD3<Double>) -> SIMD3<Double> {
        ColorMath.encoded(ColorMath.linearSRGB(okLab: okLab))
    }
}

/// What is wrong with a functional colour, for the end of a message: it quotes the
/// part at fault.
struct CSSColorProblem: Error {
    let detail: String

    init(_ detail: String) { self.detail = detail }
}
