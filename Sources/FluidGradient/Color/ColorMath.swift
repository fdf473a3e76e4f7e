import Foundation

/// A 3×3 matrix acting on colour triples, row by row.
package struct ColorMatrix: Sendable {
    package let rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    package init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        rows = (r0, r1, r2)
    }

    @inline(__always)
    package func callAsFunction(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3<Double>((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// `self · other`: applies `other` first.
    package func after(_ other: ColorMatrix) -> ColorMatrix {
        let columns = (
            SIMD3<Double>(other.rows.0.x, other.rows.1.x, other.rows.2.x),
            SIMD3(other.rows.0.y, other.rows.1.y, other.rows.2.y),
            SIMD3<Double>(other.rows.0.z, other.rows.1.z, other.rows.2.z)
        )
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3<Double>((r * columns.0).sum(), (r * columns.1).sum(), (r * columns.2).sum())
        }
        return ColorMatrix(row(rows.0), row(rows.1), row(rows.2))
    }
}

/// CSS Color Module Level 4's conversions (its section 18, "Sample code for colour
/// conversions"): the sRGB transfer function, which Display P3 shares, the matrices
/// between linear sRGB, linear Display P3 and CIE XYZ (D65), and OKLab.
///
/// Triples are `SIMD3<Double>`; nothing is clamped, so colours outside a gamut keep
/// their extended values (below 0 or above 1).
package enum ColorMath {
    /// Gamma-encoded to linear light, odd-symmetric for extended values.
    @inline(__always)
    package static func linear(_ v: Double) -> Double {
        let magnitude = abs(v)
        let result = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return v < 0 ? -result : result
    }

    /// Linear light to gamma-encoded, odd-symmetric for extended values.
    @inline(__always)
    package static func encoded(_ v: Double) -> Double {
        let magnitude = abs(v)
        let result = magnitude <= 0.0031308 ? 12.92 * magnitude : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return v < 0 ? -result : result
    }

    package static func linear(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(linear(v.x), linear(v.y), linear(v.z)) }
    package static func encoded(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3<Double>(encoded(v.x), encoded(v.y), encoded(v.z))
    }

    /// Linear sRGB to XYZ (D65).
    package static let linearSRGBToXYZ = ColorMatrix(
        SIMD3<Double>(506_752 / 1_228_815, 87_881 / 245_763, 12_673 / 70_218),
        SIMD3<Double>(87_098 / 409_605, 175_762 / 245_763, 12_673 / 175_545),
        SIMD3<Double>(7_918 / 409_605, 87_881 / 737_289, 1_001_167 / 1_053_270))

    /// XYZ (D65) to linear sRGB.
    package static let xyzToLinearSRGB = ColorMatrix(
        SIMD3<Double>(12_831 / 3_959, -329 / 214, -1_974 / 3_959),
        SIMD3<Double>(-851_781 / 878_810, 1_648_619 / 878_810, 36_519 / 878_810),
        SIMD3<Double>(705 / 12_673, -2_585 / 12_673, 705 / 667))

    /// Linear Display P3 to XYZ (D65).
    package static let linearP3ToXYZ = ColorMatrix(
        SIMD3<Double>(608_311 / 1_250_200, 189_793 / 714_400, 198_249 / 1_000_160),
        SIMD3<Double>(35_783 / 156_275, 247_089 / 357_200, 198_249 / 2_500_400),
        SIMD3<Double>(0, 32_229 / 714_400, 5_220_557 / 5_000_800))

    /// XYZ (D65) to linear Display P3.
    package static let xyzToLinearP3 = ColorMatrix(
        SIMD3<Double>(446_124 / 178_915, -333_277 / 357_830, -72_051 / 178_915),
        SIMD3<Double>(-14_852 / 17_905, 63_121 / 35_810, 423 / 17_905),
        SIMD3<Double>(11_844 / 330_415, -50_337 / 660_830, 316_169 / 330_415))

    /// XYZ (D65) to OKLab's cone responses LMS.
    package static let xyzToLMS = ColorMatrix(
        SIMD3<Double>(0.8190224379967030, 0.3619062600528904, -0.1288737815209879),
        SIMD3<Double>(0.0329836539323885, 0.9292868615863434, 0.0361446663506424),
        SIMD3<Double>(0.0481771893596242, 0.2642395317527308, 0.6335478284694309))

    /// LMS to XYZ (D65).
    package static let lmsToXYZ = ColorMatrix(
        SIMD3<Double>(1.2268798758459243, -0.5578149944602171, 0.2813910456659647),
        SIMD3<Double>(-0.0405757452148008, 1.1122868032803170, -0.0717110580655164),
        SIMD3<Double>(-0.0763729366746601, -0.4214933324022432, 1.5869240198367816))

    /// The cube roots of LMS to OKLab.
    package static let lmsRootsToOKLab = ColorMatrix(
        SIMD3<Double>(0.2104542683093140, 0.7936177747023054, -0.0040720430116193),
        SIMD3<Double>(1.9779985324311684, -2.4285922420485799, 0.4505937096174110),
        SIMD3<Double>(0.0259040424655478, 0.7827717124575296, -0.8086757549230774))

    /// OKLab to the cube roots of LMS.
    package static let okLabToLMSRoots = ColorMatrix(
        SIMD3<Double>(1.0000000000000000, 0.3963377773761749, 0.2158037573099136),
        SIMD3<Double>(1.0000000000000000, -0.1055613458156586, -0.0638541728258133),
        SIMD3<Double>(1.0000000000000000, -0.0894841775298119, -1.2914855480194092))

    /// Linear sRGB to linear Display P3, and back.
    package static let linearSRGBToLinearP3 = xyzToLinearP3.after(linearSRGBToXYZ)
    package static let linearP3ToLinearSRGB = xyzToLinearSRGB.after(linearP3ToXYZ)

    /// Linear sRGB to OKLab (through XYZ, as CSS Color 4 converts).
    package static func okLab(linearSRGB v: SIMD3<Double>) -> SIMD3<Double> {
        let lms = xyzToLMS(linearSRGBToXYZ(v))
        return lmsRootsToOKLab(SIMD3(cbrt(lms.x), cbrt(lms.y), cbrt(lms.z)))
    }

    /// OKLab to linear sRGB.
    package static func linearSRGB(okLab v: SIMD3<Double>) -> SIMD3<Double> {
        let roots = okLabToLMSRoots(v)
        return xyzToLinearSRGB(lmsToXYZ(roots * roots * roots))
    }

    /// Below this chroma an OKLCH hue is powerless (CSS Color 4's `OKLab_to_OKLCH`).
    package static let achromaticChroma = 0.000004

    /// OKLab to OKLCH: lightness, chroma, and hue in degrees 0..<360, NaN when the colour
    /// is achromatic (its hue is powerless).
    package static func okLCH(okLab v: SIMD3<Double>) -> SIMD3<Double> {
        let chroma = (v.y * v.y + v.z * v.z).squareRoot()
        guard chroma > achromaticChroma else { return SIMD3(v.x, chroma, .nan) }
        var hue = atan2(v.z, v.y) * 180 / .pi
        if hue < 0 { hue += 360 }
        return SIMD3(v.x, chroma, hue)
    }

    /// OKLCH to OKLab; a NaN hue counts as 0.
    package static func okLab(okLCH v: SIMD3<Double>) -> SIMD3<Double> {
        guard v.z.isFinite else { return SIMD3(v.x, 0, 0) }
        let radians = v.z * .pi / 180
        return SIMD3(v.x, v.y * cos(radians), v.y * sin(radians))
    }

    /// HSL (hue in degrees, saturation and lightness 0...1) to gamma-encoded sRGB, by
    /// CSS Color 4's `hslToRgb`.
    package static func srgb(hue: Double, saturation: Double, lightness: Double) -> SIMD3<Double> {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return SIMD3(f(0), f(8), f(4))
    }

    /// OKLab's deltaE: the Euclidean distance, which CSS Color 4's gamut mapping uses.
    package static func deltaEOK(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }
}
