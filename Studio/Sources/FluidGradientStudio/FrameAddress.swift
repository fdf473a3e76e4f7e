import FluidGradientIO

/// What a frame URL asks for: `{W}x{H}/{time}.{format}` and `?depth=16`, checked against
/// the service's limits.
struct FrameAddress: Hashable, Sendable {
    /// The image formats a frame is served in.
    enum Format: String, Sendable, CaseIterable {
        case png, webp, avif

        /// The `Content-Type` of the format.
        var contentType: String { "image/\(rawValue)" }
    }

    let width: Int
    let height: Int
    /// The instant, in seconds.
    let time: Double
    let format: Format
    /// 16 only for PNG.
    let depth: Frame.Depth

    /// Reads a frame URL's parts.
    ///
    /// - Parameters:
    ///   - size: `{W}x{H}`, such as `640x360`.
    ///   - file: `{time}.{format}`, such as `1.5.png`.
    ///   - depth: the `depth` query parameter: nil, `8` or `16` (PNG only).
    ///   - maxPixels: the most pixels a frame may have.
    /// - Throws: a 400 ``Problem`` for a malformed part, a 422 one for too many pixels or a
    ///   time outside 0...86400.
    init(size: String, file: String, depth: String?, maxPixels: Int) throws(Problem) {
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Self.whole(sides[0]), let height = Self.whole(sides[1]) else {
            throw .badRequest("The size '\(size)' is not WIDTHxHEIGHT in whole pixels, such as 640x360.")
        }
        guard let dot = file.lastIndex(of: "."), let format = Format(rawValue: String(file[file.index(after: dot)...]))
        else { throw .badRequest("The file '\(file)' is not TIME.png, TIME.webp or TIME.avif.") }
        let timeText = file[..<dot]
        guard let time = Self.decimal(timeText) else {
            throw .badRequest("The time '\(timeText)' is not a decimal number of seconds, such as 1.5.")
        }
        let bits: Frame.Depth
        switch (depth, format) {
        case (nil, _), ("8", _): bits = .eight
        case ("16", .png): bits = .sixteen
        default: throw .badRequest("depth may be 8 or 16 for PNG, and only 8 for WebP and AVIF; not '\(depth!)'.")
        }
        try self.init(width: width, height: height, time: time, format: format, depth: bits, maxPixels: maxPixels)
    }

    /// A frame address from its parts, checked against the limits.
    ///
    /// - Throws: a 400 ``Problem`` for a side under 1 pixel, a 422 one for too many pixels
    ///   or a time outside 0...86400. (A size the format's encoder cannot take is refused by
    ///   the library when it encodes.)
    init(width: Int, height: Int, time: Double, format: Format, depth: Frame.Depth, maxPixels: Int) throws(Problem) {
        guard width >= 1, height >= 1 else { throw .badRequest("A frame needs sides of at least 1 pixel.") }
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue <= maxPixels, width <= 16384, height <= 16384 else {
            throw .unprocessable(
                "\(width)x\(height) is over the limit of \(maxPixels) pixels (and 16384 a side) for one frame.")
        }
        guard (0...86_400).contains(time) else { throw .unprocessable("The time \(time) is outside 0...86400 s.") }
        (self.width, self.height, self.time, self.format, self.depth) = (width, height, time, format, depth)
    }

    /// The strong entity tag of this frame of the design whose pixels are `id`
    /// (``Design/pixelID``): a hash of that address, the size, the instant, the format and
    /// the depth.
    func eTag(pixelID id: String) -> String {
        let bits = depth == .sixteen ? 16 : 8
        return "\"" + SHA256.hex("\(id)/\(width)x\(height)/\(time)/\(format.rawValue)/\(bits)").prefix(32) + "\""
    }

    /// A whole number written with digits only (no sign, at most 9 digits).
    private static func whole(_ text: Substring) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    /// A decimal number: an optional `-`, digits, and optionally `.` and digits.
    private static func decimal(_ text: Substring) -> Double? {
        let body = text.hasPrefix("-") ? text.dropFirst() : text
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard body.utf8.count <= 24, !parts.isEmpty,
            parts.allSatisfy({ part in
                !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) }
            })
        else { return nil }
        return Double(text)
    }
}
