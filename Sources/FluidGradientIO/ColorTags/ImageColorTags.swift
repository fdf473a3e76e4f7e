/// Display P3 tags added to files that ffmpeg wrote without them: an animated PNG (cICP and
/// iCCP chunks, as our own PNGs carry) and a JPEG poster (an ICC profile in APP2).
package enum ImageColorTags {
    /// An APNG with Display P3's cICP (primaries 12, transfer 13, RGB, full range) and
    /// iCCP chunks right after IHDR, and whatever colour chunks it had (sRGB, gAMA, cHRM,
    /// iCCP, cICP) taken out, so that no reader finds two answers.
    ///
    /// - Parameter png: the file.
    /// - Returns: the file tagged; nil when it is not a PNG or its chunks run past its end.
    package static func taggingDisplayP3(png: [UInt8]) -> [UInt8]? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { return nil }
        let dropped: Set<String> = ["sRGB", "gAMA", "cHRM", "iCCP", "cICP"]
        var out = signature, offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let end = offset + 12 + length
            guard end <= png.count else { return nil }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            if !dropped.contains(type) { out += png[offset..<end] }
            if type == "IHDR" { out += displayP3Chunks }
            offset = end
        }
        return offset == png.count ? out : nil
    }

    /// A PNG's cICP and iCCP chunks for Display P3, the profile stored uncompressed in
    /// its zlib stream (a stored deflate block): 560 bytes, which leaves nothing to gain.
    static let displayP3Chunks: [UInt8] = {
        let name = Array("Display P3".utf8) + [0, 0]
        return chunk("cICP", [12, 13, 0, 1]) + chunk("iCCP", name + zlibStored(ICCProfile.displayP3))
    }()

    /// A JPEG with `profile` in an APP2 `ICC_PROFILE` segment after its SOI and JFIF APP0.
    ///
    /// - Parameters:
    ///   - profile: the ICC profile, under 64 kB.
    ///   - jpeg: the file.
    /// - Returns: the file with the profile; nil when it does not start as a JPEG.
    package static func adding(_ profile: [UInt8], toJPEG jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, profile.count < 65_000 else { return nil }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count > 6 {
            at = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5])
            guard at <= jpeg.count else { return nil }
        }
        let body = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = body.count + 2
        let segment: [UInt8] = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        return Array(jpeg[0..<at]) + segment + jpeg[at...]
    }

    /// A PNG chunk: length, type, data and the CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// `data` as a zlib stream of one stored (uncompressed) deflate block; at most 65535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count <= 0xFFFF, "one stored block holds at most 65535 bytes")
        let length = UInt16(data.count)
        var adlerA: UInt32 = 1, adlerB: UInt32 = 0
        for byte in data {
            adlerA = (adlerA + UInt32(byte)) % 65_521
            adlerB = (adlerB + adlerA) % 65_521
        }
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + data + bigEndian(adlerB << 16 | adlerA)
    }

    /// CRC-32 (ISO 3309, as PNG uses it).
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
