/// The `codecs` parameter of a video's MIME type (RFC 6381, with the AV1, HEVC and VP9
/// forms their specifications add), from what ffprobe reports of the encoded stream.
///
/// A browser answers `canPlayType` from this string without fetching the file, so it
/// must name the profile, level and bit depth the stream really has: a level too low
/// promises less than a player needs, and Safari refuses HEVC named without `hvc1`.
package struct CodecString: Sendable, Equatable {
    /// ffprobe's `codec_name`: h264, hevc, av1 or vp9.
    package var codec: String
    /// ffprobe's `profile`, such as `High`, `Main 10`, `Main` or `Profile 2`.
    package var profile: String
    /// ffprobe's `level`: H.264's level_idc (30 for 3.0), HEVC's general_level_idc
    /// (90 for 3.0), AV1's seq_level_idx; VP9 has none (ffprobe says -99).
    package var level: Int
    package var bitDepth: Int
    package var width: Int
    package var height: Int
    package var fps: Double

    package init(codec: String, profile: String, level: Int, bitDepth: Int, width: Int, height: Int, fps: Double) {
        self.codec = codec
        self.profile = profile
        self.level = level
        self.bitDepth = bitDepth
        self.width = width
        self.height = height
        self.fps = fps
    }

    /// The string, or nil for a codec a bundle does not use.
    package var text: String? {
        switch codec {
        case "h264": return h264
        case "hevc": return "hvc1.\(bitDepth > 8 ? "2.4" : "1.6").L\(level).B0"
        case "av1": return "av01.0." + twoDigits(max(0, level)) + "M." + twoDigits(bitDepth)
        case "vp9":
            return "vp09." + (bitDepth > 8 ? "02" : "00") + "." + twoDigits(vp9Level) + "." + twoDigits(bitDepth)
        default: return nil
        }
    }

    /// `avc1.PPCCLL`: profile_idc, the constraint flags and level_idc, in hex.
    private var h264: String {
        let (profileIDC, constraints): (Int, Int) =
            switch profile {
            case "Constrained Baseline": (66, 0x40)
            case "Baseline": (66, 0)
            case "Main": (77, 0)
            case "High 10": (110, 0)
            default: (100, 0)
            }
        return "avc1." + hex(profileIDC) + hex(constraints) + hex(level)
    }

    /// VP9 streams carry no level; this is the lowest whose picture size and sample
    /// rate (VP9 specification, annex A) hold the stream, as 10 × the level number.
    package var vp9Level: Int {
        let pictureSize = width * height
        let sampleRate = Double(pictureSize) * fps
        let levels: [(level: Int, size: Int, rate: Double)] = [
            (10, 36_864, 829_440), (11, 73_728, 2_764_800), (20, 122_880, 4_608_000), (21, 245_760, 9_216_000),
            (30, 552_960, 20_736_000), (31, 983_040, 36_864_000), (40, 2_228_224, 83_558_400),
            (41, 2_228_224, 160_432_128), (50, 8_912_896, 311_951_360), (51, 8_912_896, 588_251_136),
            (52, 8_912_896, 1_176_502_272), (60, 35_651_584, 1_176_502_272), (61, 35_651_584, 2_353_004_544),
            (62, 35_651_584, 4_706_009_088),
        ]
        return levels.first { pictureSize <= $0.size && sampleRate <= $0.rate }?.level ?? 62
    }

    private func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }

    private func hex(_ number: Int) -> String {
        let digits = String(number, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
