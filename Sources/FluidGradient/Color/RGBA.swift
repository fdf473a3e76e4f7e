/// A colour in gamma-encoded sRGB with straight (unassociated) alpha.
///
/// Channels are floats in 0...1. This is the form people write and read
/// (`#RRGGBBAA`, CSS names); the renderer works on premultiplied values.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// The red channel, 0...1.
    public var red: Double
    /// The green channel, 0...1.
    public var green: Double
    /// The blue channel, 0...1.
    public var blue: Double
    /// The alpha channel, 0...1: 0 is transparent, 1 opaque.
    public var alpha: Double

    /// A colour from its channels.
    ///
    /// - Parameters:
    ///   - red: The red channel, 0...1.
    ///   - green: The green channel, 0...1.
    ///   - blue: The blue channel, 0...1.
    ///   - alpha: The alpha channel, 0...1; opaque when left out.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
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

    /// `#RRGGBB`, or `#RRGGBBAA` when the colour is not opaque.
    public var description: String { hex }

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
