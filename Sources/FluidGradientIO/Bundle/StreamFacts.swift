/// What ffprobe says of a file's first video stream that a bundle's page and manifest
/// need: its codec, profile, level, pixel format and size.
struct StreamFacts {
    var codec: String
    var profile: String
    var level: Int
    var pixelFormat: String
    var width: Int
    var height: Int

    /// Probes `path`.
    ///
    /// - Throws: ``DecodeError/noVideoStream(path:)`` when ffprobe finds no video stream; a
    ///   ``VideoError`` when ffprobe is missing.
    init(probing path: String) throws {
        let lines = try VideoFrames.probe(
            path, ffprobe: try VideoFrames.locateFFprobe(),
            entries: "stream=codec_name,profile,level,pix_fmt,width,height")
        var fields: [String: String] = [:]
        for line in lines {
            let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let codec = fields["codec_name"], let width = fields["width"].flatMap(Int.init),
            let height = fields["height"].flatMap(Int.init)
        else {
            throw DecodeError.noVideoStream(path: path)
        }
        self.codec = codec
        self.width = width
        self.height = height
        profile = fields["profile"] ?? ""
        level = fields["level"].flatMap(Int.init) ?? -99
        pixelFormat = fields["pix_fmt"] ?? ""
    }

    /// Bits per sample of the pixel format: 10 for `yuv420p10le`, 16 for `rgba64be`, else 8.
    var bitDepth: Int {
        if pixelFormat.contains("10") { return 10 }
        if pixelFormat.contains("64") || pixelFormat.contains("48") || pixelFormat.contains("16") { return 16 }
        return 8
    }

    /// The RFC 6381 codecs parameter of a video at `fps`, or nil for an image codec.
    func codecString(fps: Double) -> String? {
        CodecString(
            codec: codec, profile: profile, level: level, bitDepth: bitDepth, width: width, height: height, fps: fps
        ).text
    }
}
