import FluidGradient
import Foundation
import Testing

/// Grain in the production path against the reference renderer, which lays it pixel by
/// pixel from the definition (DESIGN section 12), and grain off as no grain at all.
@Suite struct GrainRenderTests {
    /// A scene whose blobs draw nothing (a zero radius), so the frame is its background.
    static let empty = Scene(base: [Blob(color: .white, center: SIMD2(0.5, 0.5), radius: SIMD2(0, 0))])

    struct Flat: CustomTestStringConvertible, Sendable {
        var width: Int
        var height: Int
        var background: String
        var grain: GrainField
        var frame: Int
        var format: PixelFormat
        var testDescription: String { "\(width)x\(height) on \(background), c \(grain.cellSize), frame \(frame)" }
    }

    static let flats: [Flat] = [
        // σ over 8 pixels: the expanded RGBA path.
        Flat(
            width: 320, height: 180, background: "#3A7BD5", grain: field(0.2, cell: 1), frame: 0, format: .rgba),
        Flat(
            width: 320, height: 180, background: "#E0C068",
            grain: field(0.6, cell: 2.5, animated: true, mono: false), frame: 13, format: .rgba),
        // σ under 8 pixels, or RGB, or transparency: the general path.
        Flat(
            width: 96, height: 64, background: "#202020", grain: field(1, cell: 0.75, mono: false), frame: 3,
            format: .rgb24),
        Flat(
            width: 300, height: 200, background: "#80402080", grain: field(0.3, cell: 1, animated: true),
            frame: 6, format: .rgba),
        Flat(
            width: 300, height: 200, background: "#80402080", grain: field(0.3, cell: 3, mono: false), frame: 0,
            format: .rgb24),
    ]

    static func field(_ amount: Double, cell: Double, animated: Bool = false, mono: Bool = true) -> GrainField {
        GrainField(amount: amount, cellSize: cell, animated: animated, mono: mono, seed: 99)
    }

    /// Where the frame before grain is exactly its background at 8-bit values, the 8-bit
    /// frame with grain is exactly the reference's rounded: `255·C'` is never within 1/510
    /// of a half (`2nc/255` and `255 − 2(255 − n)(255 − c)/255` have odd numerators over
    /// 510 at a half), far more than `Float`'s error at 255.
    @Test(arguments: flats)
    func aFlatFrameWithGrainIsTheReferenceExactly(_ flat: Flat) throws {
        let spec = FrameSpec(
            width: flat.width, height: flat.height, blurExponent: flat.width < 100 ? 0.3 : 0.75,
            background: try Fill(parsing: flat.background), grain: flat.grain)
        let root = Self.empty
        let reference = ReferenceRenderer.render(root, spec: spec, frameIndex: flat.frame)
        var buffer = PixelBuffer(width: flat.width, height: flat.height, format: flat.format)
        FrameRenderer(spec: spec, threads: 2).render(root, frameIndex: flat.frame, dither: false, into: &buffer)
        var mismatches = 0, changed = 0
        let alpha = flat.format.hasAlpha
        let background = try RGBA(parsing: flat.background)
        let plainRed = Int((background.red * (alpha ? 1 : background.alpha) * 255).rounded())
        for y in 0..<flat.height {
            for x in 0..<flat.width {
                let expected = alpha ? reference.straight(x: x, y: y) : reference[x, y]
                let levels = (0..<(alpha ? 4 : 3)).map { Int((expected[$0] * 255).rounded()) }
                if buffer.channels(x: x, y: y) != levels { mismatches += 1 }
                if levels[0] != plainRed { changed += 1 }
            }
        }
        #expect(mismatches == 0)
        // The control: the grain does change the frame.
        #expect(changed > flat.width * flat.height / 4)
    }

    /// With blobs, grain's overlay passes the fast path's error on with a slope of at most
    /// `2·max(N, 1 − N) ≤ 1 + amount`: DESIGN's tolerance still holds (measured largest 1.3
    /// levels, mean 0.2). The control, the same frame with another phase's grain, is far
    /// outside it.
    @Test(arguments: [(0.08, 1.0, true), (0.25, 2.5, false)])
    func withBlobsTheFastPathStaysWithinTheTolerance(amount: Double, cell: Double, mono: Bool) throws {
        let spec = FrameSpec(
            width: 200, height: 120, blurExponent: 0.7, background: try Fill(parsing: "#101828"),
            grain: GrainField(amount: amount, cellSize: cell, animated: true, mono: mono, seed: 5))
        let root = randomScene(seed: 21, width: 200, height: 120)
        let reference = ReferenceRenderer.render(root, spec: spec, frameIndex: 2, threads: 2)
        let renderer = FrameRenderer(spec: spec, threads: 2)
        var buffer = PixelBuffer(width: 200, height: 120, format: .rgba)
        renderer.render(root, frameIndex: 2, dither: false, into: &buffer)
        let error = errorAgainstReference(buffer, reference)
        #expect(error.max <= 2, "largest \(error.max) at \(error.worst)")
        #expect(error.mean <= 0.5, "mean \(error.mean)")
        renderer.render(root, frameIndex: 3, dither: false, into: &buffer)
        let control = errorAgainstReference(buffer, reference)
        #expect(control.max > 2 && control.mean > 0.5, "another phase: \(control.max), \(control.mean)")
    }

    /// No `grain` key, or an amount of 0 with any other settings, is no grain: the frame
    /// spec has none, and the bytes are those of a preset without the key.
    @Test func grainOffIsNoGrain() throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 240
        preset.height = 135
        let plain = try preset.frame(at: 1.5)
        preset.grain = Grain(amount: 0, size: 4, animated: true, mono: false)
        #expect(preset.frameSpec.grain == nil)
        #expect(try preset.frame(at: 1.5).bytes == plain.bytes)
        preset.grain.amount = 0.05
        #expect(try preset.frame(at: 1.5).bytes != plain.bytes)
    }

    /// Every format, any thread count, the same bytes; and a frame range, or a frame on
    /// its own, the bytes of the whole run's frames (animated grain's phase is the frame's).
    @Test(arguments: [PixelFormat.rgba, .rgb24, .rgba64le, .yuv420p, .yuv420p10le])
    func grainIsDeterministic(format: PixelFormat) throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 320
        preset.height = 180
        preset.grain = Grain(amount: 0.1, size: 1.5, animated: true, mono: false)
        let scene = Animator(preset: preset).scene(at: 0.5)
        var outputs: Set<[UInt8]> = []
        for threads in [1, 2, 3, 8] {
            var buffer = PixelBuffer(width: 320, height: 180, format: format)
            FrameRenderer(spec: preset.frameSpec, threads: threads).render(scene, frameIndex: 30, into: &buffer)
            outputs.insert(buffer.bytes)
        }
        #expect(outputs.count == 1)
    }

    @Test func frameRangesHaveTheWholeRunsGrain() throws {
        var preset = try PresetFixtures.builtIn("ember")
        preset.width = 160
        preset.height = 90
        preset.grain = Grain(amount: 0.2, animated: true)
        let whole = try preset.frames(in: 0..<12).map(\.bytes)
        #expect(try preset.frames(in: 5..<12).map(\.bytes) == Array(whole[5...]))
        #expect(try preset.frames(in: 9..<10, threads: 3).map(\.bytes) == [whole[9]])
        // Animated grain moves: frames 0 and 8 share a phase, 0 and 1 do not.
        preset.speed = 0
        let still = try preset.frames(in: 0..<9, dither: false).map(\.bytes)
        #expect(still[0] == still[8] && still[0] != still[1])
    }

    /// yuv420p with grain takes each pixel's grained RGB to Y′CbCr, as the RGBA frame
    /// would be converted: its luma is within a level of the RGBA frame's.
    @Test func yuvWithGrainIsTheGrainedFramesLuma() throws {
        var preset = try PresetFixtures.builtIn("citrus")
        preset.width = 320
        preset.height = 180
        preset.grain = Grain(amount: 0.3)
        let scene = Animator(preset: preset).scene(at: 1)
        let renderer = FrameRenderer(spec: preset.frameSpec, threads: 2)
        var rgba = PixelBuffer(width: 320, height: 180, format: .rgba)
        var yuv = PixelBuffer(width: 320, height: 180, format: .yuv420p)
        renderer.render(scene, dither: false, into: &rgba)
        renderer.render(scene, dither: false, into: &yuv)
        var largest = 0.0
        for y in 0..<180 {
            for x in 0..<320 {
                let c = rgba.channels(x: x, y: y).map { Double($0) }
                let luma = 16 + 219 * (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255
                largest = max(largest, abs(luma - Double(yuv.bytes[y * 320 + x])))
            }
        }
        #expect(largest <= 1)
    }
}
