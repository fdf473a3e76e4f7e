/// Everything that defines an animated gradient: the file contract of DESIGN section 8.
///
/// Every property but the colours has the default of DESIGN sections 2–7. A preset
/// built in code is checked when it is rendered, as a preset file is when it is read.
///
/// ```swift
/// var preset = Preset(colors: [RGBA(red: 1, green: 0.37, blue: 0.43), RGBA(red: 1, green: 0.76, blue: 0.44)])
/// preset.background = .color(RGBA(red: 0.04, green: 0.06, blue: 0.15))
/// let frame = try preset.frame(at: 1.5, width: 640, height: 360)
/// ```
public struct Preset: Hashable, Sendable {
    /// The preset's name, which errors about it show in place of a file name.
    public var name: String
    /// A sentence saying what the preset looks like.
    public var description: String
    /// One random base blob per colour: 1 to 64 colours.
    public var colors: [RGBA]
    /// One random highlight blob per colour, blended with overlay: up to 64.
    public var highlights: [RGBA]
    /// What the blurred blobs are composited onto: a colour or a gradient, which may be
    /// transparent.
    public var background: Fill
    /// Tempo, 0...10: 0 is a still scene.
    public var speed: Double
    /// The blur exponent `e`, 0...1: the blur's standard deviation is
    /// `p·(min(W, H)/p)^e` pixels, with `p` the ``pointScale``.
    public var blur: Double
    /// The seed of the random blobs and their motion: the same seed gives the same animation.
    public var seed: UInt64
    /// The ranges the random blobs' sizes, aspects, opacities and retargets are drawn from.
    public var ranges: BlobRanges
    /// What the blur sees beyond the frame's edges.
    public var edges: EdgeMode
    /// The frame's width in pixels, 1...16384, when a render does not give one.
    public var width: Int
    /// The frame's height in pixels, 1...16384, when a render does not give one.
    public var height: Int
    /// Frames per second, 1...240: frame `i` shows the instant `i / fps`.
    public var fps: Double
    /// The animation's length in seconds, 0.001...86400.
    public var duration: Double
    /// Whether the motion repeats with a period of ``duration``, without a seam.
    public var loop: Bool
    /// The point scale `p` of the blur size, 0.25...8: 2 imitates a Retina screen.
    public var pointScale: Double
    /// Explicit base blobs: used exactly as given instead of random ones.
    public var blobs: [Blob]?
    /// Explicit highlight blobs.
    public var highlightBlobs: [Blob]?

    /// A preset with the given colours and every other property at its default: a black
    /// background, speed 1, blur 0.75, seed 0, bleeding edges, 1920×1080 at 60 fps for
    /// 10 seconds, no loop.
    ///
    /// - Parameters:
    ///   - colors: One random base blob per colour: 1 to 64 colours.
    ///   - highlights: One random highlight blob per colour, up to 64.
    public init(colors: [RGBA], highlights: [RGBA] = []) {
        name = "untitled"
        description = ""
        self.colors = colors
        self.highlights = highlights
        background = .color(.black)
        speed = 1
        blur = 0.75
        seed = 0
        ranges = BlobRanges()
        edges = .bleed
        width = 1920
        height = 1080
        fps = 60
        duration = 10
        loop = false
        pointScale = 1
    }

    /// The number of frames the duration covers at the frame rate: `round(duration × fps)`,
    /// at least 1.
    public var frameCount: Int { max(1, Int((duration * fps).rounded())) }

    package var frameSpec: FrameSpec {
        FrameSpec(width: width, height: height, blurExponent: blur, pointScale: pointScale, edges: edges, background: background)
    }
}

/// The allowed values of each preset parameter, shared by the preset loader and the CLI
/// so both give the same limits.
package enum PresetLimits {
    package static let speed = 0.0...10.0
    package static let blur = 0.0...1.0
    package static let pointScale = 0.25...8.0
    package static let fps = 1.0...240.0
    package static let duration = 0.001...86_400.0
    /// Each side of the frame, in pixels.
    package static let side = 1...16_384
    /// Width × height, in pixels (a 8192×8192 RGBA frame is 256 MiB).
    package static let maximumPixels = 8192 * 8192
    package static let blobSize = 0.0...4.0
    package static let blobAspect = 0.0...16.0
    package static let opacity = 0.0...1.0
    package static let retargetInterval = 0.05...600.0
    package static let seed = 0.0...9_007_199_254_740_991.0
    package static let colorCount = 1...64
    /// An explicit blob's centre and radius, each coordinate, in frame units.
    package static let blobCoordinate = -100.0...100.0
    /// A gradient's angle, in degrees.
    package static let gradientAngle = -36_000.0...36_000.0

    /// The one rule for a range of a key bounded by `bounds`, as preset files, the command
    /// line and ``Preset/validate()`` all apply it: min and max inside `bounds`, min ≤ max,
    /// and a step, when there is one, above 0 and at most `bounds`' upper end (so finite).
    ///
    /// - Parameters:
    ///   - range: the range as read or built.
    ///   - bounds: the key's allowed values, such as ``blobSize``.
    /// - Returns: the part at fault (`min`, `max`, `step`, or empty for the range as a
    ///   whole) and why, or nil when the range is usable.
    package static func rangeProblem(
        _ range: ParameterRange, within bounds: ClosedRange<Double>
    ) -> (part: String, message: String)? {
        for (part, value) in [("min", range.min), ("max", range.max)] where !bounds.contains(value) {
            return (part, JSONReader.outside(ParameterRange.format(value), bounds))
        }
        guard range.min <= range.max else {
            let (low, high) = (ParameterRange.format(range.min), ParameterRange.format(range.max))
            return ("", "min \(low) is greater than max \(high)")
        }
        guard let step = range.step else { return nil }
        guard (0...bounds.upperBound).contains(step) else {
            return ("step", JSONReader.outside(ParameterRange.format(step), 0...bounds.upperBound))
        }
        return step > 0 ? nil : ("step", "a step must be greater than 0")
    }

    /// Checks how many explicit blobs a list holds: 1 to 64 base blobs (a scene needs
    /// one), and up to 64 highlight blobs; the message says what is allowed.
    ///
    /// - Parameters:
    ///   - count: the length of the list.
    ///   - highlights: whether it is the `highlightBlobs` list, which may be empty.
    /// - Returns: what is wrong, or nil.
    package static func checkBlobCount(_ count: Int, highlights: Bool) -> String? {
        let allowed = (highlights ? 0 : colorCount.lowerBound)...colorCount.upperBound
        guard !allowed.contains(count) else { return nil }
        return highlights
            ? "expected at most \(allowed.upperBound) blobs, found \(count)"
            : "expected \(allowed.lowerBound) to \(allowed.upperBound) blobs, found \(count)"
    }

    /// Checks a frame size; the message says what is allowed.
    package static func checkSize(width: Int, height: Int) -> String? {
        guard side.contains(width), side.contains(height) else {
            return "\(width)x\(height) is not a usable size: each side must be \(side.lowerBound) to \(side.upperBound) pixels"
        }
        guard width * height <= maximumPixels else {
            return "\(width)x\(height) is too large: at most \(maximumPixels) pixels (8192x8192) in all"
        }
        return nil
    }

    /// Parses `WxH` (`1920x1080`); nil when it is not of that form.
    package static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.trimmingSpaces().lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }
}
