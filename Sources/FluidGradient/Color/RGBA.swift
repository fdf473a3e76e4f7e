/// A colour in gamma-encoded sRGB with straight (unassociated) alpha.
///
/// Channels are floats, 0...1 inside sRGB's gamut. This is the form people write and read
/// (`#RRGGBBAA`, CSS names, CSS Color 4's functions); the renderer works on
/// `premultiplied` values. A colour outside sRGB, such as a Display P3 or an OKLCH one,
/// has red, green or blue below 0 or above 1 (extended sRGB, as CSS Color 4 and Apple's
/// extended sRGB write it); a frame maps it into its own gamut when it is rendered.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    // Four scalars, not a SIMD4<Double>: a 32-byte-aligned member made the test runner's
    // async frames that hold a colour abort ("freed pointer was not the last allocation").
    private var r: Double, g: Double, b: Double, a: Double
    /// The CSS Color 4 function the colour was read from (`oklch(63.7% 0.237 25.331)`), as
    /// written; nil for hex, names and colours built in code. Setting a channel forgets it.
    package private(set) var written: String?

    /// The red channel, 0...1 inside sRGB.
    public var red: Double {
        get { r }
        set { (r, written) = (newValue, nil) }
    }
    /// The green channel, 0...1 inside sRGB.
    public var green: Double {
        get { g }
        set { (g, written) = (newValue, nil) }
    }
    /// The blue channel, 0...1 inside sRGB.
    public var blue: Double {
        get { b }
        set { (b, written) = (newValue, nil) }
    }
    /// The alpha channel, 0...1: 0 is transparent, 1 opaque.
    public var alpha: Double {
        get { a }
        set { (a, written) = (newValue, nil) }
    }

    /// A colour from its channels.
    ///
    /// - Parameters:
    ///   - red: The red channel, 0...1 inside sRGB; below 0 or above 1 for a colour
    ///     outside it (extended sRGB).
    ///   - green: The green channel, likewise.
    ///   - blue: The blue channel, likewise.
    ///   - alpha: The alpha channel, 0...1; opaque when left out.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (r, g, b, a) = (red, green, blue, alpha)
        written = nil
    }

    /// A colour read from `written`, which it keeps for showing it again.
    package init(red: Double, green: Double, blue: Double, alpha: Double, written: String) {
        (r, g, b, a) = (red, green, blue, alpha)
        self.written = written
    }

    /// Builds a colour from 0...255 channels.
    package init(bytes r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
    }

    /// Transparent black.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA(red: 1, green: 1, blue: 1)

    /// `(r·a, g·a, b·a, a)`.
    package var premultiplied: SIMD4<Double> {
        SIMD4(red * alpha, green * alpha, blue * alpha, alpha)
    }

    /// The channels as they are stored: red, green, blue, alpha.
    package var vector: SIMD4<Double> { SIMD4(r, g, b, a) }

    package var isOpaque: Bool { alpha >= 1 }

    /// The channels as 0...255 integers, rounded to nearest.
    package var bytes: (red: Int, green: Int, blue: Int, alpha: Int) {
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when the colour is not opaque.
    package var hex: String {
        let b = bytes
        func two(_ v: Int) -> String {
            let digits = Array("0123456789ABCDEF")
            return String([digits[v >> 4], digits[v & 15]])
        }
        var text = "#" + two(b.red) + two(b.green) + two(b.blue)
        if b.alpha != 255 { text += two(b.alpha) }
        return text
    }

    /// The colour as a preset file writes it: as it was written, or `#RRGGBB` (`#RRGGBBAA`
    /// when not opaque), or `color(srgb …)` for a colour outside sRGB built in code.
    package var text: String {
        if let written { return written }
        if isInsideSRGB { return hex }
        func number(_ value: Double) -> String { ParameterRange.format((value * 1e6).rounded() / 1e6) }
        let rgb = [red, green, blue].map(number).joined(separator: " ")
        return "color(srgb \(rgb)" + (alpha < 1 ? " / \(number(alpha)))" : ")")
    }

    /// Whether red, green and blue are each in 0...1.
    package var isInsideSRGB: Bool {
        (0...1).contains(red) && (0...1).contains(green) && (0...1).contains(blue)
    }

    /// The colour as a preset file writes it: as it was written (`oklch(…)`, `rgb(…)`), or
    /// `#RRGGBB` (`#RRGGBBAA` when not opaque).
    public var description: String { text }

    /// Channel-wise linear interpolation of straight values: `self + (other − self)·t`.
    package func mixed(with other: RGBA, by t: Double) -> RGBA {
        RGBA(
            red: red + (other.red - red) * t,
            green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t,
            alpha: alpha + (other.alpha - alpha) * t
        )
    }
}
