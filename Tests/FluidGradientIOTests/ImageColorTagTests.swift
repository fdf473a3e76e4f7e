import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// Display P3 added to files ffmpeg writes without it: a WebP's ICCP chunk, an APNG's
/// cICP and iCCP chunks, a JPEG poster's APP2 profile.
@Suite struct ImageColorTagTests {
    /// A WebP gets its ICCP chunk and the extended header's ICC flag, from the simple
    /// format too, and the profile reads back; a file that is no WebP is refused.
    @Test func webPsCarryTheProfile() throws {
        // A 1x1 lossless WebP (VP8L): signature 0x2F, 14-bit width − 1 and height − 1, alpha bit.
        let vp8l: [UInt8] = [0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x48, 0x44, 0x00]
        let still =
            Array("RIFF".utf8) + [UInt8(4 + 8 + vp8l.count + 1), 0, 0, 0] + Array("WEBP".utf8)
            + Array("VP8L".utf8) + [UInt8(vp8l.count), 0, 0, 0] + vp8l + [0]
        let tagged = try WebPColorProfile.adding(ICCProfile.displayP3, to: still)
        #expect(Array(tagged[12..<16]) == Array("VP8X".utf8) && tagged[20] & 0x20 != 0)
        #expect(WebPColorProfile.profile(in: tagged) == ICCProfile.displayP3)
        #expect(WebPColorProfile.profile(in: still) == nil)
        let riffSize = tagged[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(riffSize + 8 == tagged.count)
        #expect(throws: FinishingFailure.notWebP) { try WebPColorProfile.adding([], to: Array("RIFF".utf8)) }
    }

    /// A PNG (as ffmpeg's APNG) gets cICP and iCCP after IHDR in place of its own colour
    /// chunks, each with a good CRC, and libpng reads it as Display P3.
    @Test func pngsFromElsewhereGetTheTags() throws {
        let png = [UInt8](try ColorTagTests.frame(.srgb).pngData())
        let tagged = try #require(ImageColorTags.taggingDisplayP3(png: png))
        let types = ColorTagTests.chunks(tagged).map(\.type)
        #expect(types.prefix(3) == ["IHDR", "cICP", "iCCP"] && !types.contains("sRGB"), "\(types)")
        #expect(try PNGFile.decode(tagged, name: "tagged").colorSpace == .displayP3)
        #expect(ImageColorTags.taggingDisplayP3(png: Array(png.prefix(40))) == nil)
        #expect(ImageColorTags.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    /// A JPEG gets an APP2 ICC_PROFILE segment after its JFIF header.
    @Test func jpegsCarryTheProfile() throws {
        let jfif: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let jpeg = jfif + [0xFF, 0xD9]
        let tagged = try #require(ImageColorTags.adding(ICCProfile.displayP3, toJPEG: jpeg))
        #expect(Array(tagged[0..<20]) == jfif)
        #expect(Array(tagged[20..<22]) == [0xFF, 0xE2] && Array(tagged[24..<36]) == Array("ICC_PROFILE".utf8) + [0])
        #expect(Array(tagged.suffix(2)) == [0xFF, 0xD9])
        #expect(ImageColorTags.adding(ICCProfile.displayP3, toJPEG: [0x89, 0x50]) == nil)
    }
}
