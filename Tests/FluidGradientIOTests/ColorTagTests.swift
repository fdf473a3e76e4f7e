import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Display P3 said in every file (DESIGN section 13): a PNG's cICP and iCCP chunks, the
/// project's own ICC profile, and the tags read back. littleCMS reads the profile in
/// `Scripts/colour-check.py`, and Chromium honours the PNG in `BrowserTests/test_colour.py`.
@Suite struct ColorTagTests {
    /// The chunk types of a PNG, in order, with their data.
    static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = [], offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks.append(
                (
                    String(decoding: png[offset + 4..<offset + 8], as: UTF8.self),
                    Array(png[offset + 8..<offset + 8 + length])
                ))
            offset += 12 + length
        }
        return chunks
    }

    static func frame(_ space: ColorSpace) throws -> Frame {
        var preset = try Preset(builtIn: "ocean")
        preset.colorSpace = space
        return try preset.frame(at: 0, width: 48, height: 27)
    }

    /// A Display P3 PNG has cICP (primaries 12, transfer 13, RGB, full range) and iCCP
    /// before its data and no sRGB chunk; an sRGB PNG keeps its sRGB chunk and nothing else.
    @Test func pngsSayTheirColourSpace() throws {
        let p3 = Self.chunks([UInt8](try Self.frame(.displayP3).pngData())).map(\.type)
        #expect(p3.prefix(3) == ["IHDR", "iCCP", "cICP"] && !p3.contains("sRGB"), "\(p3)")
        let cicp = Self.chunks([UInt8](try Self.frame(.displayP3).pngData())).first { $0.type == "cICP" }
        #expect(cicp?.data == [12, 13, 0, 1])
        let srgb = Self.chunks([UInt8](try Self.frame(.srgb).pngData())).map(\.type)
        #expect(srgb.prefix(2) == ["IHDR", "sRGB"] && !srgb.contains("cICP") && !srgb.contains("iCCP"), "\(srgb)")
    }

    /// Decoding reads the tags back, and a frame round-trips with its space.
    @Test(arguments: ColorSpace.allCases)
    func decodingReadsTheSpaceBack(space: ColorSpace) throws {
        let frame = try Self.frame(space)
        let decoded = try Frame(pngData: try frame.pngData())
        #expect(decoded == frame)
        #expect(decoded.colorSpace == space)
    }

    /// The profile is a well-formed ICC v4 display profile: its size field is its size,
    /// its signature is in place, and its colorants name Display P3; an sRGB profile built
    /// the same way names sRGB, and bytes that are no profile name nothing.
    @Test func theProfileIsDisplayP3s() {
        let profile = ICCProfile.displayP3
        let size = profile[0..<4].reduce(0) { $0 << 8 | Int($1) }
        #expect(size == profile.count && profile.count % 4 == 0)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8) && Array(profile[12..<24]) == Array("mntrRGB XYZ ".utf8))
        #expect(ICCProfile.colorSpace(of: profile) == .displayP3)
        let srgb = ICCProfile.build(description: "sRGB", rgbToXYZD65: ColorMath.linearSRGBToXYZ)
        #expect(ICCProfile.colorSpace(of: srgb) == .srgb)
        #expect(ICCProfile.colorSpace(of: Array(profile.prefix(200))) == nil)
        #expect(ICCProfile.colorSpace(of: [UInt8](repeating: 7, count: 600)) == nil)
    }

    /// Bradford's D65-to-D50 adaptation takes D65 to D50 exactly, and the colorants of a
    /// profile add up to D50 (to s15.16 rounding), as ICC.1 asks of a display profile.
    @Test func theAdaptationTakesD65ToD50() {
        let white = ICCProfile.adaptation(ICCProfile.d65)
        #expect(max(abs(white.x - 0.9642), abs(white.y - 1), abs(white.z - 0.8249)) < 1e-12)
        let colorants = ICCProfile.adaptation.after(ColorMath.linearP3ToXYZ)
        let sum = colorants(SIMD3(1, 1, 1))
        #expect(max(abs(sum.x - 0.9642), abs(sum.y - 1), abs(sum.z - 0.8249)) < 1e-9)
    }
}
