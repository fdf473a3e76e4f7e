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
    /// The colour space frames are written in: sRGB (the default) or Display P3. Colours
    /// outside it are brought into it by CSS Color 4's gamut mapping.
    public var colorSpace: ColorSpace
    /// The space the layers are composited and blurred in: sRGB's encoded values (the
    /// default), linear light or OKLab.
    package var mixing: MixingSpace
    /// Explicit base blobs: used exactly as given instead of random ones.
    public var blobs: [Blob]?
    /// Explicit highlight blobs.
    public var highlightBlobs: [Blob]?
    /// The grain laid over the frame after the background: none (an amount of 0) by default.
    public var grain: Grain

    /// A preset with the given colours and every other property at its default: a black
    /// background, speed 1, blur 0.75, seed 0, bleeding edges, 1920×1080 at 60 fps for
    /// 10 seconds, no loop, no grain.
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
        colorSpace = .srgb
        mixing = .srgb
        grain = Grain()
    }

    /// The engine's version: what `fluidgradient --version` prints, and the manifests of
    /// bundles and batches record.
    ///
    /// It changes whenever the pixels rendered for some preset, size and instant change,
    /// so the version, ``jsonText``, the size and the instant together name a frame's
    /// content (a cache key that never goes stale).
    public static let engineVersion = "1.0.0"

    /// The number of frames the duration covers at the frame rate: `round(duration × fps)`,
    /// at least 1.
    public var frameCount: Int { max(1, Int((duration * fps).rounded())) }

    package var frameSpec: FrameSpec {
        FrameSpec(
            width: width, height: height, blurExponent: blur, pointScale: pointScale, edges: edges,
            background: background, colorSpace: colorSpace, mixingSpace: mixing,
            grain: GrainField(grain, pointScale: pointScale, seed: seed))
    }
}
