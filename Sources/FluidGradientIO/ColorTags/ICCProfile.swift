import FluidGradient

/// The ICC profile the project writes into Display P3 files (a PNG's iCCP, a WebP's
/// ICCP), built here rather than copied: ICC.1 version 4.3, a display (`mntr`) RGB
/// profile over the XYZ PCS, holding the primaries adapted to D50 by Bradford (with the
/// adaptation in `chad`), D50 as the media white, and the sRGB transfer function as a
/// parametric curve of type 3, which Display P3 shares.
package enum ICCProfile {
    /// The Display P3 profile's bytes (532 of them). They depend on nothing but the
    /// constants here, so every file holds the same profile.
    package static let displayP3: [UInt8] = build(
        description: "Display P3", rgbToXYZD65: ColorMath.linearP3ToXYZ)

    /// The PCS illuminant, D50, as ICC.1 fixes it.
    package static let d50 = SIMD3<Double>(0.9642, 1, 0.8249)

    /// CSS Color 4's D65 white: x 0.3127, y 0.3290.
    package static let d65 = SIMD3<Double>(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)

    /// The Bradford cone response matrix.
    static let bradford = ColorMatrix(
        SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296))

    /// Bradford's chromatic adaptation from D65 to D50: `B⁻¹ · diag(B·D50 / B·D65) · B`.
    package static var adaptation: ColorMatrix {
        let scale = bradford(d50) / bradford(d65)
        let scaled = ColorMatrix(
            bradford.rows.0 * scale.x, bradford.rows.1 * scale.y, bradford.rows.2 * scale.z)
        return inverse(bradford).after(scaled)
    }

    /// A display profile for an RGB space with the sRGB curve, whose linear RGB goes to
    /// XYZ (D65) by `rgbToXYZD65`.
    package static func build(description: String, rgbToXYZD65: ColorMatrix) -> [UInt8] {
        let colorants = adaptation.after(rgbToXYZD65)
        func column(_ index: Int) -> SIMD3<Double> {
            SIMD3(colorants.rows.0[index], colorants.rows.1[index], colorants.rows.2[index])
        }
        let curve = parametricCurve()
        let tags: [(String, [UInt8])] = [
            ("desc", text(description)), ("cprt", text("No copyright, use freely")), ("wtpt", xyz(d50)),
            ("rXYZ", xyz(column(0))), ("gXYZ", xyz(column(1))), ("bXYZ", xyz(column(2))),
            ("rTRC", curve), ("gTRC", curve), ("bTRC", curve), ("chad", matrix(adaptation)),
        ]
        return assemble(tags)
    }

    /// The header, the tag table and the tags' data, each 4-byte aligned; tags with the
    /// same data share it, as profiles share one curve for three channels.
    static func assemble(_ tags: [(String, [UInt8])]) -> [UInt8] {
        var data: [UInt8] = [], offsets: [[UInt8]: Int] = [:], table: [(String, Int, Int)] = []
        let start = 128 + 4 + 12 * tags.count
        for (signature, bytes) in tags {
            if let offset = offsets[bytes] {
                table.append((signature, offset, bytes.count))
                continue
            }
            let offset = start + data.count
            offsets[bytes] = offset
            table.append((signature, offset, bytes.count))
            data += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        }
        var profile = header(size: start + data.count)
        profile += uint32(UInt32(tags.count))
        for (signature, offset, size) in table {
            profile += Array(signature.utf8) + uint32(UInt32(offset)) + uint32(UInt32(size))
        }
        return profile + data
    }

    static func header(size: Int) -> [UInt8] {
        var header = uint32(UInt32(size)) + [0, 0, 0, 0] + [0x04, 0x30, 0, 0]
        header += Array("mntrRGB XYZ ".utf8)
        // Creation date, fixed so that the bytes never change: 2026-01-01 00:00:00.
        header += [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
        header += Array("acsp".utf8) + [UInt8](repeating: 0, count: 24)
        header += uint32(0)  // perceptual intent
        header += s15Fixed16(d50.x) + s15Fixed16(d50.y) + s15Fixed16(d50.z)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header
    }

    /// `mluc` with one English record.
    static func text(_ string: String) -> [UInt8] {
        let utf16 = string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + [0, 0, 0, 0] + uint32(1) + uint32(12) + Array("enUS".utf8)
            + uint32(UInt32(utf16.count)) + uint32(28) + utf16
    }

    static func xyz(_ v: SIMD3<Double>) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + s15Fixed16(v.x) + s15Fixed16(v.y) + s15Fixed16(v.z)
    }

    /// `para` type 3: `Y = (a·X + b)^g` for `X ≥ d`, else `c·X`: the sRGB curve.
    static func parametricCurve() -> [UInt8] {
        let parameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return Array("para".utf8) + [0, 0, 0, 0] + [0, 3, 0, 0] + parameters.flatMap(s15Fixed16)
    }

    static func matrix(_ m: ColorMatrix) -> [UInt8] {
        Array("sf32".utf8) + [0, 0, 0, 0]
            + [m.rows.0, m.rows.1, m.rows.2].flatMap { row in
                [row.x, row.y, row.z].flatMap(s15Fixed16)
            }
    }

    static func s15Fixed16(_ value: Double) -> [UInt8] {
        uint32(UInt32(bitPattern: Int32((value * 65536).rounded())))
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The inverse of a 3×3 matrix, by its adjugate.
    static func inverse(_ m: ColorMatrix) -> ColorMatrix {
        let (a, b, c) = m.rows
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * r0.x + a.y * r1.x + a.z * r2.x
        return ColorMatrix(r0 / determinant, r1 / determinant, r2 / determinant)
    }
}

extension ICCProfile {
    /// The space an ICC profile describes, by its colorants (`rXYZ`, `gXYZ`, `bXYZ`):
    /// sRGB's or Display P3's adapted to D50, to within 0.002 (profiles round them, to
    /// s15.16 or by their own adaptation); nil for any other profile or one unread.
    ///
    /// - Parameter profile: the profile's bytes, as a PNG's iCCP chunk holds them.
    /// - Returns: the space, or nil.
    package static func colorSpace(of profile: [UInt8]) -> ColorSpace? {
        guard profile.count >= 132 else { return nil }
        func uint32(at offset: Int) -> UInt32? {
            guard offset >= 0, offset + 4 <= profile.count else { return nil }
            return profile[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func colorant(_ signature: String) -> SIMD3<Double>? {
            guard let count = uint32(at: 128), count < 1000 else { return nil }
            for index in 0..<Int(count) {
                let entry = 132 + 12 * index
                guard let name = uint32(at: entry), let offset = uint32(at: entry + 4) else { return nil }
                guard name == Array(signature.utf8).reduce(0, { $0 << 8 | UInt32($1) }) else { continue }
                let values = (0..<3).compactMap { uint32(at: Int(offset) + 8 + 4 * $0) }
                guard values.count == 3 else { return nil }
                return SIMD3(values.map { Double(Int32(bitPattern: $0)) / 65536 })
            }
            return nil
        }
        guard let red = colorant("rXYZ"), let green = colorant("gXYZ"), let blue = colorant("bXYZ") else { return nil }
        for (space, matrix) in [(ColorSpace.srgb, ColorMath.linearSRGBToXYZ), (.displayP3, ColorMath.linearP3ToXYZ)] {
            let expected = adaptation.after(matrix)
            let columns = (0..<3).map { SIMD3(expected.rows.0[$0], expected.rows.1[$0], expected.rows.2[$0]) }
            let largest =
                zip([red, green, blue], columns).map { pair in
                    let d = pair.0 - pair.1
                    return max(abs(d.x), abs(d.y), abs(d.z))
                }.max() ?? 1
            if largest < 0.002 { return space }
        }
        return nil
    }
}
