import Foundation

/// A colour in Björn Ottosson's OKLab space: `L` lightness 0...1, `a` green–red and
/// `b` blue–yellow. Euclidean distance in OKLab tracks perceived difference well,
/// which is why palette extraction clusters here and comparisons report ΔE in it.
package struct OKLab: Hashable, Sendable {
    package var l: Double
    package var a: Double
    package var b: Double

    package init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// From gamma-encoded sRGB in 0...1.
    package init(red: Double, green: Double, blue: Double) {
        let r = OKLab.linear(red), g = OKLab.linear(green), bl = OKLab.linear(blue)
        let lms = (
            0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl,
            0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl,
            0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl
        )
        let lRoot = cbrt(lms.0), mRoot = cbrt(lms.1), sRoot = cbrt(lms.2)
        l = 0.2104542553 * lRoot + 0.7936177850 * mRoot - 0.0040720468 * sRoot
        a = 1.9779984951 * lRoot - 2.4285922050 * mRoot + 0.4505937099 * sRoot
        b = 0.0259040371 * lRoot + 0.7827717662 * mRoot - 0.8086757660 * sRoot
    }

    package init(_ color: RGBA) {
        self.init(red: color.red, green: color.green, blue: color.blue)
    }

    /// Back to gamma-encoded sRGB, clamped into the gamut.
    package var rgba: RGBA {
        let lRoot = l + 0.3963377774 * a + 0.2158037573 * b
        let mRoot = l - 0.1055613458 * a - 0.0638541728 * b
        let sRoot = l - 0.0894841775 * a - 1.2914855480 * b
        let lms = (lRoot * lRoot * lRoot, mRoot * mRoot * mRoot, sRoot * sRoot * sRoot)
        let r = 4.0767416621 * lms.0 - 3.3077115913 * lms.1 + 0.2309699292 * lms.2
        let g = -1.2684380046 * lms.0 + 2.6097574011 * lms.1 - 0.3413193965 * lms.2
        let bl = -0.0041960863 * lms.0 - 0.7034186147 * lms.1 + 1.7076147010 * lms.2
        return RGBA(red: OKLab.encoded(r), green: OKLab.encoded(g), blue: OKLab.encoded(bl))
    }

    /// Chroma, the distance from the grey axis.
    package var chroma: Double { (a * a + b * b).squareRoot() }

    /// Euclidean distance: ΔE in OKLab (about 0.02 is a just-noticeable difference).
    package func distance(to other: OKLab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return (dl * dl + da * da + db * db).squareRoot()
    }

    /// The sRGB transfer function, inverted.
    static func linear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func encoded(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
}
