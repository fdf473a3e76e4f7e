import FluidGradient
import Foundation
import SystemPackage

/// Frame-by-frame comparison of two frame sets.
package struct Comparison: Sendable {
    package enum Status: String, Sendable {
        case matches
        case differs
        /// In the expected set, not the actual one.
        case missing
        /// In the actual set, not the expected one.
        case extra
        case sizeMismatch
    }

    package struct FrameResult: Sendable {
        package var name: String
        package var status: Status
        package var difference: FrameDifference?
        /// `(expected, actual)` sizes when they differ.
        package var sizes: (expected: String, actual: String)?
        /// The diff strip written for a differing frame.
        package var diffPath: String?
        /// Why the strip for a differing frame could not be written.
        package var diffFailure: String?
        /// The actual frame's own size (`WxH`) when it was scaled up to the expected one.
        package var upscaledFrom: String?
        /// The false contours the actual frame adds to the expected one.
        package var banding: BandingDifference?
    }

    package var expected: String
    package var actual: String
    /// In 8-bit levels.
    package var tolerance: Double
    /// Share of pixels (0...1) allowed over the tolerance in a matching frame.
    package var maximumDiffering: Double
    /// What is done with actual frames smaller than the expected ones.
    package var scaling: FrameScaling = .none
    /// Whether each compared pair's banding is measured (``BandingDifference``).
    package var measuresBanding = false
    package var frames: [FrameResult] = []
    /// The colour spaces of the first pair of frames compared; frames of two spaces are
    /// compared in Display P3 (``FrameDifference``).
    package var colorSpaces: (expected: ColorSpace, actual: ColorSpace)?

    package var matches: Bool { frames.allSatisfy { $0.status == .matches } }

    package func count(_ status: Status) -> Int { frames.filter { $0.status == status }.count }

    /// Compares `expected` and `actual` frame by frame, writing a strip for each
    /// differing frame into `diffDirectory` when given.
    ///
    /// Frames are matched by file name when both sides are directories, by number
    /// when both are numbered (patterns and videos), and otherwise by position. An
    /// actual frame smaller than its expected one is fitted to it by `scaling`.
    package static func run(
        expected: FrameSet, actual: FrameSet, tolerance: Double, maximumDiffering: Double, diffDirectory: String?,
        scaling: FrameScaling = .none, measuresBanding: Bool = false
    ) throws -> Comparison {
        var comparison = Comparison(
            expected: expected.path, actual: actual.path, tolerance: tolerance, maximumDiffering: maximumDiffering,
            scaling: scaling, measuresBanding: measuresBanding)
        if let diffDirectory {
            guard AtomicFile.makeDirectories(diffDirectory) else {
                throw DecodeError.cannotCreateDiffDirectory(directory: diffDirectory, errno: .last)
            }
            guard access(diffDirectory, W_OK | X_OK) == 0 else {
                throw DecodeError.diffDirectoryNotWritable(directory: diffDirectory, errno: .last)
            }
        }
        switch (expected.keys, actual.keys) {
        case (let expectedKeys?, let actualKeys?):
            let sameKind = zip(expectedKeys.prefix(1), actualKeys.prefix(1)).allSatisfy {
                Comparison.kind($0) == Comparison.kind($1)
            }
            let pairs =
                sameKind && !(expectedKeys.count == 1 && actualKeys.count == 1)
                ? Comparison.pairByKey(expectedKeys, actualKeys) : Comparison.pairByPosition(expectedKeys, actualKeys)
            for (expectedKey, actualKey) in pairs {
                try Interruption.check()
                let name = expectedKey.map(expected.label) ?? actualKey.map(actual.label) ?? "?"
                guard let expectedKey else {
                    comparison.frames.append(FrameResult(name: name, status: .extra))
                    continue
                }
                guard let actualKey else {
                    comparison.frames.append(FrameResult(name: name, status: .missing))
                    continue
                }
                comparison.compare(
                    try expected.load(expectedKey), try actual.load(actualKey), name: name, diffDirectory: diffDirectory
                )
            }
        default:
            let left = try FrameStream(expected), right = try FrameStream(actual)
            try comparison.compareInOrder(left, right, diffDirectory: diffDirectory)
        }
        return comparison
    }

    /// Walks both sides in order, decoding as it goes, for a side that is a video or an
    /// animated image. A still image stands for every frame of the other side.
    private mutating func compareInOrder(
        _ left: FrameStream, _ right: FrameStream, diffDirectory: String?
    ) throws {
        while true {
            try Interruption.check()
            let a = try left.next(), b = try right.next()
            if a?.repeated ?? true, b?.repeated ?? true { break }
            // A still's name says nothing of which frame this is.
            let name = (left.isStill ? nil : a?.name) ?? b?.name ?? a!.name
            switch (a, b) {
            case (let a?, let b?): compare(a.samples, b.samples, name: name, diffDirectory: diffDirectory)
            case (_?, nil): frames.append(FrameResult(name: name, status: .missing))
            default: frames.append(FrameResult(name: name, status: .extra))
            }
        }
    }

    private mutating func compare(_ a: FrameSamples, _ stored: FrameSamples, name: String, diffDirectory: String?) {
        let stripPath = diffDirectory.map { Comparison.stripPath(for: name, in: $0) }
        // A strip from an earlier run must not outlive its difference.
        if let stripPath { unlink(stripPath) }
        let (b, upscaledFrom) = scaling.fit(stored, to: a)
        guard a.width == b.width, a.height == b.height else {
            frames.append(
                FrameResult(
                    name: name, status: .sizeMismatch, sizes: ("\(a.width)x\(a.height)", "\(b.width)x\(b.height)")))
            return
        }
        if colorSpaces == nil { colorSpaces = (a.colorSpace, b.colorSpace) }
        let difference = FrameDifference(expected: a, actual: b, tolerance: tolerance)
        let matches = difference.matches(maximumShare: maximumDiffering)
        var result = FrameResult(name: name, status: matches ? .matches : .differs, difference: difference)
        result.upscaledFrom = upscaledFrom
        if measuresBanding {
            // Identical frames add no banding.
            result.banding =
                difference.largest == 0
                ? BandingDifference(expected: 0, actual: 0) : BandingDifference(expected: a, actual: b)
        }
        // A strip that cannot be written does not change the verdict; the report says so.
        if !matches, let stripPath {
            do {
                try PNGFile.write(DiffStrip.render(expected: a, actual: b, tolerance: tolerance), to: stripPath)
                result.diffPath = stripPath
            } catch {
                result.diffFailure = "\(error)"
            }
        }
        frames.append(result)
    }

    /// `DIR/NAME.diff.png`, with the frame's name flattened into one file name.
    private static func stripPath(for name: String, in directory: String) -> String {
        let stem = name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: " ", with: "-")
        return (directory.hasSuffix("/") ? directory : directory + "/")
            + (stem.lowercased().hasSuffix(".png") ? String(stem.dropLast(4)) : stem) + ".diff.png"
    }

    private static func kind(_ key: FrameSet.Key) -> Int {
        if case .name = key { return 0 }
        return 1
    }

    /// Pairs by key, in the expected set's order, then the actual set's extras.
    private static func pairByKey(_ expected: [FrameSet.Key], _ actual: [FrameSet.Key]) -> [(
        FrameSet.Key?, FrameSet.Key?
    )] {
        let actualSet = Set(actual), expectedSet = Set(expected)
        return expected.map { ($0, actualSet.contains($0) ? $0 : nil) }
            + actual.filter { !expectedSet.contains($0) }.map { (nil, $0) }
    }

    private static func pairByPosition(_ expected: [FrameSet.Key], _ actual: [FrameSet.Key]) -> [(
        FrameSet.Key?, FrameSet.Key?
    )] {
        (0..<max(expected.count, actual.count)).map {
            ($0 < expected.count ? expected[$0] : nil, $0 < actual.count ? actual[$0] : nil)
        }
    }
}

/// Frames of any set in order, videos and animated images decoded as they are read.
private final class FrameStream {
    private let set: FrameSet
    private let sequence: DecodedFrames?
    private var still: (name: String, samples: FrameSamples)?
    private var position = 0

    init(_ set: FrameSet) throws {
        self.set = set
        sequence = try set.openSequence()
    }

    /// Whether this is one image that stands for every frame of the other side.
    var isStill: Bool { sequence?.isStill ?? false }

    /// The next frame, or nil after the last; a still image's one frame again and again,
    /// marked as `repeated` after the first time.
    func next() throws -> (name: String, samples: FrameSamples, repeated: Bool)? {
        defer { position += 1 }
        if let still { return (still.name, still.samples, true) }
        if let sequence {
            guard let samples = try sequence.next() else { return nil }
            if sequence.isStill { still = ("frame 0", samples) }
            return ("frame \(position)", samples, false)
        }
        guard let keys = set.keys, position < keys.count else { return nil }
        return (set.label(of: keys[position]), try set.load(keys[position]), false)
    }
}

extension Comparison {
    /// One line per frame that does not match, then a summary line.
    package var report: String {
        var lines: [String] = []
        for frame in frames where frame.status != .matches {
            switch frame.status {
            case .differs:
                let d = frame.difference!
                let channel = ["R", "G", "B", "A"][d.worst.channel]
                var line =
                    "\(frame.name) differs: \(counted(d.pixelsOverTolerance, "pixel"))"
                    + " (\(d.percentOverTolerance))"
                    + " over \(counted(tolerance, "level"));"
                    + " largest \(counted((d.largest * 100).rounded() / 100, "level"))"
                    + " at (\(d.worst.x), \(d.worst.y)) \(channel)"
                    + String(
                        format: "; PSNR %.1f dB; ΔE OKLab mean %.4f, max %.4f; score %.2f", d.psnr, d.meanDeltaE,
                        d.largestDeltaE, d.score)
                if let size = frame.upscaledFrom { line += "; upscaled from \(size)" }
                if let path = frame.diffPath { line += "; diff \(path)" }
                if let failure = frame.diffFailure { line += "; no diff strip: \(failure)" }
                lines.append(line)
            case .missing: lines.append("\(frame.name) is missing from \(actual)")
            case .extra: lines.append("\(frame.name) is extra in \(actual)")
            case .sizeMismatch:
                lines.append(
                    "\(frame.name) differs in size: \(frame.sizes!.expected) expected, \(frame.sizes!.actual) actual")
            case .matches: break
            }
        }
        lines += bandingLines
        lines += notes.map { "note: " + $0 }
        let compared = frames.filter { $0.difference != nil }
        let meanScore = compared.map { $0.difference!.score }.reduce(0, +) / Double(max(compared.count, 1))
        lines.append(
            "\(matches ? "match" : "differ"): \(counted(frames.count, "frame")), "
                + "\(count(.matches)) matching, \(count(.differs)) differing, "
                + "\(count(.missing)) missing, \(count(.extra)) extra, \(count(.sizeMismatch)) of another size; "
                + (compared.isEmpty
                    ? "no frames compared"
                    : String(format: "mean score %.2f", meanScore)
                        + (compared.count == frames.count
                            ? "" : " over the \(counted(compared.count, "frame")) compared"))
        )
        return lines.joined(separator: "\n")
    }

    /// The space the frames were compared in: their own, or Display P3 for two spaces.
    package var comparedIn: ColorSpace {
        guard let colorSpaces else { return .srgb }
        return colorSpaces.expected == colorSpaces.actual ? colorSpaces.expected : .displayP3
    }

    /// What may explain the result beyond the frames themselves.
    package var notes: [String] {
        var notes: [String] = []
        if let spaces = colorSpaces, spaces.expected != spaces.actual {
            let converted = spaces.expected == .srgb ? expected : actual
            notes.append(
                "\(expected) is \(spaces.expected.rawValue) and \(actual) is \(spaces.actual.rawValue): "
                    + "compared in display-p3, the colours of \(converted) converted into it")
        }
        let upscaled = frames.compactMap(\.upscaledFrom)
        if let size = upscaled.first {
            notes.append(
                "\(actual): \(counted(upscaled.count, "frame")) scaled up bilinearly from \(size) to the expected size "
                    + "(--scale bilinear)")
        }
        guard count(.missing) + count(.extra) > 0 else { return notes }
        if let gif = [expected, actual].first(where: { $0.lowercased().hasSuffix(".gif") }) {
            notes.append(
                "if \(gif) was rendered above 50 fps, it keeps only every 2nd (or k-th) frame, as GIF delays are whole "
                    + "hundredths of a second; compare it with frames rendered at its own rate, 50 fps or less")
        }
        if let animation = [expected, actual].first(where: { AnimatedImageFormat(path: $0) != nil }) {
            notes.append(
                "the frames of \(animation) are taken at --fps, else at its own rate (its frames over its duration); "
                    + "if it was rendered at another rate, or its encoder merged identical frames, give --fps")
        }
        return notes
    }

    /// The machine-readable report (schema in the README).
    package var json: JSONValue {
        func number(_ value: Double) -> JSONNode {
            JSONNode(value.isFinite ? .number((value * 1e6).rounded() / 1e6) : .null)
        }
        let entries = frames.map { frame -> JSONNode in
            var fields: [(String, JSONNode)] = [
                ("name", JSONNode(.string(frame.name))), ("status", JSONNode(.string(frame.status.rawValue))),
            ]
            if let d = frame.difference {
                fields += [
                    ("largestDifference", number(d.largest)),
                    (
                        "worst",
                        JSONNode(
                            .object([
                                ("x", number(Double(d.worst.x))), ("y", number(Double(d.worst.y))),
                                ("channel", JSONNode(.string(["R", "G", "B", "A"][d.worst.channel]))),
                            ]))
                    ),
                    ("pixelsOverTolerance", number(Double(d.pixelsOverTolerance))),
                    ("shareOverTolerance", number(d.shareOverTolerance)),
                    ("psnr", number(d.psnr)),
                    ("meanDeltaE", number(d.meanDeltaE)),
                    ("largestDeltaE", number(d.largestDeltaE)),
                    ("score", number(d.score)),
                ]
            }
            if let sizes = frame.sizes {
                fields += [
                    ("expectedSize", JSONNode(.string(sizes.expected))),
                    ("actualSize", JSONNode(.string(sizes.actual))),
                ]
            }
            if let banding = frame.banding { fields.append(("banding", Comparison.json(banding))) }
            if let size = frame.upscaledFrom { fields.append(("upscaledFrom", JSONNode(.string(size)))) }
            if let path = frame.diffPath { fields.append(("diff", JSONNode(.string(path)))) }
            if let failure = frame.diffFailure { fields.append(("diffError", JSONNode(.string(failure)))) }
            return JSONNode(.object(fields))
        }
        return .object(
            [
                ("expected", JSONNode(.string(expected))),
                ("actual", JSONNode(.string(actual))),
                ("tolerance", number(tolerance)),
                ("maxDiffering", number(maximumDiffering)),
                ("match", JSONNode(.bool(matches))),
            ] + (comparedIn == .srgb ? [] : [("colorSpace", JSONNode(.string(comparedIn.rawValue)))]) + [
                (
                    "summary",
                    JSONNode(
                        .object(
                            [
                                ("frames", number(Double(frames.count))),
                                ("matching", number(Double(count(.matches)))),
                                ("differing", number(Double(count(.differs)))),
                                ("missing", number(Double(count(.missing)))),
                                ("extra", number(Double(count(.extra)))),
                                ("sizeMismatch", number(Double(count(.sizeMismatch)))),
                            ] + bandingSummary))
                ),
                ("frames", JSONNode(.array(entries))),
            ] + (notes.isEmpty ? [] : [("notes", JSONNode(.array(notes.map { JSONNode(.string($0)) })))]))
    }
}
