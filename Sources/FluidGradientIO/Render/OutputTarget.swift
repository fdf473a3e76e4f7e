import Foundation

/// Video containers and animated images the `ffmpeg` binary writes for us.
package enum VideoContainer: String, CaseIterable, Sendable {
    /// H.264 (yuv420p), HEVC or AV1 (10-bit), BT.709 tagged (``VideoCodec``).
    case mp4
    /// ProRes 4444 with alpha.
    case mov
    /// VP9, with alpha when the frame has transparency.
    case webm
    /// Palette-optimised GIF.
    case gif
    /// Animated WebP, lossy, with alpha when the frame has transparency.
    case webp
    /// Animated PNG, 8-bit RGB or RGBA.
    case apng
    /// Animated AVIF: AV1, with an alpha track when the frame has transparency.
    case avif

    /// The codec of every file of this container but `.mp4`, whose codec is chosen.
    package var codecName: String {
        switch self {
        case .mp4: "H.264, HEVC or AV1"
        case .mov: "ProRes 4444"
        case .webm: "VP9"
        case .gif: "GIF"
        case .webp: "WebP"
        case .apng: "APNG"
        case .avif: "AV1"
        }
    }

    /// Whether pieces of one render in this container, each a `--frame-range`, join into the
    /// whole with ffmpeg's concat demuxer and no re-encoding. An animated image does not: it is
    /// one loop, a GIF above 50 fps keeps every k-th frame of its own piece, a GIF's palette is
    /// its piece's, ffmpeg cannot read an animated WebP back, and APNG and AVIF number their
    /// frames from each piece's start.
    package var joinsPieces: Bool {
        switch self {
        case .mp4, .mov, .webm: true
        case .gif, .webp, .apng, .avif: false
        }
    }
}

/// Where rendered frames go, chosen from the output name.
package enum OutputTarget: Equatable, Sendable {
    /// One PNG file: one frame.
    case png(String)
    /// Numbered PNG files from a pattern such as `frames/%05d.png`; the number is the frame index.
    case pngSequence(FramePattern)
    case video(String, VideoContainer)
    /// Raw frames on standard output (`-o -`).
    case raw

    package init(parsing output: String) throws {
        if output == "-" {
            self = .raw
            return
        }
        guard !output.isEmpty else { throw OutputError.emptyPath }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if output.contains("%") {
            let pattern = try FramePattern(output)
            guard ext == "png" else {
                throw OutputError.patternNotPNG(path: output)
            }
            self = .pngSequence(pattern)
            return
        }
        if ext == "png" {
            self = .png(output)
        } else if let container = VideoContainer(rawValue: ext) {
            self = .video(output, container)
        } else {
            throw OutputError.unknownKind(path: output)
        }
    }

    /// Whether this target holds a single frame.
    package var isSingleFrame: Bool {
        if case .png = self { return true }
        return false
    }
}

/// A printf-style frame-number pattern with exactly one `%d` or `%0Nd`; `%%` is a percent sign.
package struct FramePattern: Equatable, Sendable {
    package let text: String
    private let prefix: String
    private let suffix: String
    private let width: Int

    package init(_ text: String) throws {
        self.text = text
        var prefix = "", suffix = "", width = 0, found = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                if found { suffix.append(character) } else { prefix.append(character) }
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                if found { suffix.append("%") } else { prefix.append("%") }
                continue
            }
            var digits = ""
            while let next = characters.first, next.isNumber {
                digits.append(next)
                characters.removeFirst()
            }
            guard characters.popFirst() == "d", !found, digits.isEmpty || digits.hasPrefix("0") || digits.count <= 2
            else {
                throw OutputError.severalFrameNumbers(pattern: text)
            }
            found = true
            width = Int(digits) ?? 0
        }
        guard found else {
            throw OutputError.noFrameNumber(pattern: text)
        }
        guard width <= 12 else { throw OutputError.frameNumberTooWide(pattern: text) }
        self.prefix = prefix
        self.suffix = suffix
        self.width = width
    }

    package func path(frame: Int) -> String {
        var number = String(frame)
        if number.count < width { number = String(repeating: "0", count: width - number.count) + number }
        return prefix + number + suffix
    }

    /// The frame number of a path this pattern produces, or nil.
    package func frameNumber(ofPath candidate: String) -> Int? {
        guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix), candidate.count > prefix.count + suffix.count
        else {
            return nil
        }
        let digits = candidate.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let number = Int(digits),
            path(frame: number) == candidate
        else { return nil }
        return number
    }

    /// The directory the frames go to, as written in the pattern (`.` when none).
    package var directory: String {
        let first = path(frame: 0)
        guard let slash = first.lastIndex(of: "/") else { return "." }
        return slash == first.startIndex ? "/" : String(first[..<slash])
    }
}
