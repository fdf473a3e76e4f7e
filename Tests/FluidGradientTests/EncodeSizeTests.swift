import FluidGradient
import Foundation
import Testing

/// DESIGN section 10, "Encode size": `auto` picks a size whose bilinear upscale stays within
/// 1 level (largest error, 16-bit, dither off) of the full-size render.
@Suite struct EncodeSizeTests {
    static let blurs = [0.3, 0.45, 0.6, 0.7, 0.8, 0.95]
    static let instants = [0.35, 2.9, 7.15]

    /// The frame of `preset` at `time`, 16-bit, dither off.
    static func frame(_ preset: Preset, at time: Double) -> FrameSamples {
        var buffer = PixelBuffer(width: preset.width, height: preset.height, format: .rgba64le)
        let scene = Animator(preset: preset).scene(at: time)
        FrameRenderer(spec: preset.frameSpec).render(scene, dither: false, into: &buffer)
        return FrameSamples(buffer)
    }

    /// The largest error over `instants` of `preset` rendered at `size` and scaled up.
    static func upscaledError(_ preset: Preset, at size: EncodeSize, instants: [Double] = instants) -> Double {
        instants.map { time in
            FrameDifference(
                expected: frame(preset, at: time), upscaling: frame(preset.rendered(at: size), at: time), tolerance: 1
            ).largest
        }.max()!
    }

    static func preset(
        _ colors: [String], background: String = "#000000", blur: Double, edges: EdgeMode = .bleed,
        blobs: [Blob]? = nil, seed: UInt64 = 1
    ) -> Preset {
        var preset = Preset(colors: colors.map { try! RGBA(parsing: $0) })
        preset.background = try! Fill(parsing: background)
        preset.blur = blur
        preset.edges = edges
        preset.blobs = blobs
        preset.seed = seed
        preset.loop = true
        (preset.width, preset.height) = (640, 360)
        return preset
    }

    /// A white disc of 1000 pixels whose rim crosses the top-left corner diagonally, on black:
    /// the steepest slope a blurred field can have, along the corner's diagonal, where the
    /// upscale repeats the outermost encoded pixel.
    static func cornerEdge(blur: Double, edges: EdgeMode) -> Preset {
        let radius = 1000.0, offset = 0.95 * radius / 2.squareRoot()
        let disc = Blob(
            color: .white, center: [offset / 640, offset / 360], radius: [radius / 640, radius / 360], opacity: 1)
        var preset = Self.preset(["#FFFFFF"], blur: blur, edges: edges, blobs: [disc])
        preset.speed = 0
        return preset
    }

    @Test(arguments: blurs)
    func theWorstCornerStaysWithinOneLevel(blur: Double) {
        for edges in [EdgeMode.bleed, .transparent] {
            let preset = Self.cornerEdge(blur: blur, edges: edges)
            let size = EncodeSize.automatic(for: preset)
            let error = Self.upscaledError(preset, at: size, instants: [0])
            #expect(error <= 1, "blur \(blur), \(edges): \(size.width)x\(size.height) strays \(error) levels")
            guard case .blur(let bound) = size.reason, edges == .bleed else { continue }
            // The corner attains the bound within the disc's curvature and feather: the rule
            // gives away nothing here.
            #expect(error >= 0.9 * bound && error <= bound, "blur \(blur): \(error) levels against a bound of \(bound)")
        }
    }

    @Test func theNextSmallerSizeBreaksTheWorstCorner() {
        let preset = Self.cornerEdge(blur: 0.95, edges: .bleed)
        let size = EncodeSize.automatic(for: preset)
        #expect(size.width == 160 && size.height == 90)
        let smaller = EncodeSize(width: 128, height: 72, reason: .requested)
        #expect(Self.upscaledError(preset, at: smaller, instants: [0]) > 1)
    }

    @Test(arguments: blurs)
    func handBuiltScenesStayWithinOneLevel(blur: Double) {
        let scenes = [
            Self.preset(["#FF2D55", "#5E5CE6", "#FF9F0A"], background: "#0B0B1A", blur: blur),
            Self.preset(
                ["#FFFFFF", "#000000"], background: "linear 300 #0B1026 0, #3B1E54 0.6, #9B3675 1", blur: blur),
            Self.preset(
                ["#22D3EE", "#F59E0B"], background: "radial #FFFFFF, #000000", blur: blur, edges: .transparent),
            Self.preset(["#FFFFFF", "#FF0000"], background: "#00000080", blur: blur, edges: .transparent),
            Self.preset(["#FFAFCC", "#FFC8DD", "#F497B6"], background: "#FFF5F0", blur: blur),
        ]
        for preset in scenes {
            let size = EncodeSize.automatic(for: preset)
            let error = Self.upscaledError(preset, at: size)
            let scene = "\(preset.background) at blur \(blur): \(size.width)x\(size.height)"
            #expect(error <= 1, "\(scene) strays \(error) levels")
        }
    }

    /// A random preset drawn from `generator`: 2 to 5 colours, up to 2 highlights, a solid,
    /// linear or radial background, a blur in `blurs` and bleed or transparent edges.
    static func randomPreset(_ generator: inout SplitMix64, blurs: ClosedRange<Double>) -> Preset {
        func colour() -> String { String(format: "#%06X", Int(generator.next() % 0x100_0000)) }
        let colors = (0..<(2 + Int(generator.next() % 4))).map { _ in colour() }
        let kind = generator.next() % 4
        let angle = Int(generator.next() % 360)
        let background = kind < 2 ? colour() : "\(kind == 2 ? "linear \(angle)" : "radial") \(colour()), \(colour())"
        var preset = Self.preset(
            colors, background: background, blur: generator.next(in: blurs),
            edges: generator.next() % 2 == 0 ? .bleed : .transparent, seed: generator.next() >> 12)
        preset.highlights = (0..<Int(generator.next() % 3)).map { _ in try! RGBA(parsing: colour()) }
        preset.speed = generator.next(in: 0.3...1.2)
        return preset
    }

    @Test func randomPresetsStayWithinOneLevel() {
        var generator = SplitMix64(seed: 2310)
        var reduced = 0
        for index in 0..<12 {
            // Every other draw from the blurs that shrink a 640x360 frame (σ above 110 px).
            let preset = Self.randomPreset(&generator, blurs: index % 2 == 0 ? 0.3...0.95 : 0.8...0.95)
            let size = EncodeSize.automatic(for: preset)
            if !size.isFullSize(of: preset) { reduced += 1 }
            let error = Self.upscaledError(preset, at: size)
            #expect(error <= 1, "\(preset.colors) on \(preset.background), blur \(preset.blur): \(error) levels")
        }
        // Half the backgrounds are random gradients, whose full-contrast slopes keep a
        // 640x360 frame at full size: this draw shrinks 4 of the 12.
        #expect(reduced >= 4, "the draw should exercise reduced sizes, not only full ones")
    }

    /// The unblurred background alone, upscaled, against its own term of the bound: the
    /// steepest slope at the corner and every kink the frame crosses (not those on its
    /// border, as a two-stop linear gradient's ends at 0 or 90 degrees).
    @Test(arguments: [
        "linear 0 #000000, #FFFFFF", "linear 0 #000000 0, #FFFFFF 0.5, #000000 1",
        "linear 30 #0B1026, #9B3675, #3B1E54", "radial #FFFFFF, #000000", "radial #000000 0, #FFFFFF 0.3, #203040 1",
    ])
    func aGradientBackgroundStaysWithinItsTerm(background: String) {
        let invisible = Blob(color: RGBA(red: 0, green: 0, blue: 0, alpha: 0), center: [0.5, 0.5], radius: [0.2, 0.2])
        let preset = Self.preset(["#000000"], background: background, blur: 0.9, blobs: [invisible])
        for k in [2, 4] {
            let size = EncodeSize(width: 640 / k, height: 360 / k, reason: .requested)
            let bound = UpscaleErrorBound.background(preset.background, width: 640, height: 360, factor: Double(k))
            let error = Self.upscaledError(preset, at: size, instants: [0])
            // 16-bit samples round each frame by at most 1/514 of a level.
            #expect(error <= bound + 0.005, "\(background), k = \(k): \(error) levels against \(bound)")
            // Within a factor of 10: the bound takes the steepest slope and every kink at once.
            #expect(error >= 0.1 * bound, "\(background), k = \(k): the bound \(bound) is far above \(error)")
        }
    }

    @Test func kinksOnTheBorderDoNotCount() throws {
        // Black to white left to right: t runs 0...1 across the frame, so its two kinks lie
        // on the left and right borders; what is left is the slope, 1/640 a pixel, times
        // the corner's offset, (k − 1)/2 pixels along each axis.
        let linear = try Fill(parsing: "linear 0 #000000, #FFFFFF")
        let bound = UpscaleErrorBound.background(linear, width: 640, height: 360, factor: 2)
        #expect(abs(bound - 255.0 / 1280) < 1e-12, "\(bound)")
        // A radial gradient reaches t = 1 only at the corners: only the apex counts, a cone
        // of slope √2/360 a pixel, off by at most that times the half diagonal, 2/√2.
        let radial = try Fill(parsing: "radial #FFFFFF, #000000")
        let edge = (2.squareRoot() / 640 + 2.squareRoot() / 360) / 2, apex = 2.0 / 360
        let radialBound = UpscaleErrorBound.background(radial, width: 640, height: 360, factor: 2)
        #expect(abs(radialBound - 255 * (edge + apex)) < 1e-9, "\(radialBound)")
    }

    @Test(arguments: [0.3, 0.5, 0.6])
    func smallBlursKeepTheFullSize(blur: Double) {
        let size = EncodeSize.automatic(for: Self.preset(["#FF2D55", "#5E5CE6"], blur: blur))
        #expect(size == EncodeSize(width: 640, height: 360, reason: .blurTooSmall))
    }

    @Test func clampEdgesKeepTheFullSize() {
        // Clamp repeats the outermost pixels, which a smaller frame takes from further in:
        // a blob rim along the border makes its edges another picture.
        let rim = Blob(color: .white, center: [0.5, -0.0665 * 1080 / 360], radius: [6, 0.0705 * 1080 / 360])
        let preset = Self.preset(["#FFFFFF"], blur: 0.95, edges: .clamp, blobs: [rim])
        #expect(EncodeSize.automatic(for: preset).reason == .clampEdges)
        let half = EncodeSize(width: 320, height: 180, reason: .requested)
        #expect(Self.upscaledError(preset, at: half, instants: [0]) > 1)
    }

    /// Grain is detail of a cell, which no smaller frame holds: a smaller encode scaled up
    /// is several levels off, so `auto` keeps the full size, and a bundle's grain-free loop
    /// takes the size without grain.
    @Test func grainKeepsTheFullSize() {
        var preset = Self.preset(["#FF2D55", "#5E5CE6"], blur: 0.95)
        let plain = EncodeSize.automatic(for: preset)
        #expect(plain.width < 640)
        preset.grain = Grain(amount: 0.08)
        #expect(EncodeSize.automatic(for: preset) == EncodeSize(width: 640, height: 360, reason: .grain))
        #expect(EncodeSize.automatic(for: preset.withoutGrain) == plain)
        #expect(Self.upscaledError(preset, at: plain, instants: [0]) > 5)
    }

    @Test func backgroundsWithoutASmallerFormKeepTheFullSize() {
        for background in ["conic red, blue, red", "linear 0 #000000 0, #000000 0.5, #FFFFFF 0.5, #FFFFFF 1"] {
            let size = EncodeSize.automatic(for: Self.preset(["#FF2D55"], background: background, blur: 0.95))
            #expect(size.reason == .backgroundDetail, "\(background)")
        }
        let flatConic = Self.preset(["#FF2D55"], background: "conic #102030, #102030", blur: 0.95)
        #expect(EncodeSize.automatic(for: flatConic).width < 640)
    }

    @Test func sizesWithoutEvenDivisorsKeepTheFullSize() {
        var preset = Self.preset(["#FF2D55"], blur: 0.95)
        (preset.width, preset.height) = (641, 360)
        #expect(EncodeSize.automatic(for: preset).reason == .noSmallerSize)
        #expect(EncodeSize.factors(width: 1920, height: 1080) == [2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60])
        #expect(EncodeSize.factors(width: 640, height: 360) == [2, 4, 5, 10, 20])
    }

    @Test func renderingAtTheEncodeSizeDividesSigmaByTheFactor() {
        var preset = Self.preset(["#FF2D55"], blur: 0.75)
        preset.pointScale = 2
        let small = preset.rendered(at: EncodeSize(width: 160, height: 90, reason: .requested))
        #expect(small.width == 160 && small.height == 90 && small.pointScale == 0.5)
        #expect(abs(small.frameSpec.sigma * 4 - preset.frameSpec.sigma) < 1e-9 * preset.frameSpec.sigma)
    }
}
