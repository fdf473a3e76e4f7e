import FluidGradient
import FluidGradientIO
import Foundation
import Testing

@Suite struct CodecStringTests {
    /// The forms that browsers and the codecs' own specifications give, field by field.
    @Test func eachCodecNamesItsProfileLevelAndDepth() {
        func text(_ codec: String, _ profile: String, _ level: Int, _ depth: Int) -> String? {
            CodecString(codec: codec, profile: profile, level: level, bitDepth: depth, width: 480, height: 270, fps: 60)
                .text
        }
        #expect(text("h264", "High", 30, 8) == "avc1.64001E")
        #expect(text("h264", "Constrained Baseline", 31, 8) == "avc1.42401F")
        #expect(text("h264", "Main", 40, 8) == "avc1.4D0028")
        #expect(text("hevc", "Main 10", 93, 10) == "hvc1.2.4.L93.B0")
        #expect(text("hevc", "Main", 120, 8) == "hvc1.1.6.L120.B0")
        #expect(text("av1", "Main", 1, 10) == "av01.0.01M.10")
        #expect(text("av1", "Main", 12, 8) == "av01.0.12M.08")
        #expect(text("vp9", "Profile 2", -99, 10) == "vp09.02.21.10")
        #expect(text("prores", "4444", 0, 10) == nil)
    }

    /// VP9's level is the lowest whose limits hold the picture size and sample rate.
    @Test func vp9LevelsFollowTheSpecificationsLimits() {
        func level(_ width: Int, _ height: Int, _ fps: Double) -> Int {
            CodecString(
                codec: "vp9", profile: "Profile 0", level: -99, bitDepth: 8, width: width, height: height, fps: fps
            )
            .vp9Level
        }
        #expect(level(256, 144, 15) == 10)  // 36,864 samples: exactly level 1's picture
        #expect(level(256, 144, 30) == 11)  // 1,105,920 samples/s: over level 1's 829,440
        #expect(level(1920, 1080, 30) == 40)
        #expect(level(1920, 1080, 60) == 41)
        #expect(level(3840, 2160, 60) == 51)
        #expect(level(16384, 16384, 60) == 62)  // beyond every level: the highest
    }
}
