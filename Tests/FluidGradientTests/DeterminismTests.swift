import FluidGradient
import Foundation
import Testing

/// Same inputs, same bytes: across runs and across thread counts (DESIGN section 9).
@Suite struct DeterminismTests {
    @Test(arguments: [PixelFormat.rgba, .rgb24, .rgba64le, .yuv420p, .yuv420p10le])
    func identicalBytesAtAnyThreadCount(format: PixelFormat) throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 640
        preset.height = 360
        let scene = Animator(preset: preset).scene(at: 1.25)
        var outputs: [[UInt8]] = []
        for threads in [1, 2, 3, 8, 1] {
            var buffer = PixelBuffer(width: 640, height: 360, format: format)
            FrameRenderer(spec: preset.frameSpec, threads: threads).render(scene, frameIndex: 75, into: &buffer)
            outputs.append(buffer.bytes)
        }
        #expect(Set(outputs).count == 1)
    }

    /// Frames rendered in concurrent tasks, a renderer each, come back across the tasks
    /// as values with the bytes of one renderer's serial run.
    @Test func framesRenderedInConcurrentTasksMatchASerialRun() async throws {
        var preset = try PresetFixtures.builtIn("aurora")
        preset.width = 160
        preset.height = 90
        let animator = Animator(preset: preset)
        let times = (0..<16).map { Double($0) * 0.37 }
        let serial = FrameRenderer(spec: preset.frameSpec)
        let expected = times.map { time -> [UInt8] in
            var buffer = PixelBuffer(width: 160, height: 90, format: .rgba)
            serial.render(animator.scene(at: time), into: &buffer)
            return buffer.bytes
        }
        let spec = preset.frameSpec
        let scenes = times.map { animator.scene(at: $0) }
        let frames = await withTaskGroup(of: (Int, PixelBuffer).self) { group in
            for (index, scene) in scenes.enumerated() {
                group.addTask {
                    var buffer = PixelBuffer(width: 160, height: 90, format: .rgba)
                    FrameRenderer(spec: spec).render(scene, into: &buffer)
                    return (index, buffer)
                }
            }
            var frames = [PixelBuffer?](repeating: nil, count: scenes.count)
            for await (index, buffer) in group { frames[index] = buffer }
            return frames
        }
        #expect(frames.map { $0?.bytes } == expected)
    }

    /// Blobs narrower than a cell move their cells' content by its first moment, which is
    /// added to the grid in grid order after the rows are composited on any threads.
    @Test func thinBlobsGiveIdenticalBytesAtAnyThreadCount() {
        let spec = FrameSpec(width: 1280, height: 720, blurExponent: 0.45, background: .color(.black))
        let thin = (0..<6).map { index in
            Blob(
                color: .white, center: SIMD2(0.1 + 0.15 * Double(index), 0.2 + 0.1 * Double(index)),
                radius: SIMD2(0.002, 0.2))
        }
        let scene = Scene(base: thin)
        var outputs: Set<[UInt8]> = []
        for threads in [1, 2, 3, 8] {
            var buffer = PixelBuffer(width: 1280, height: 720, format: .rgb24)
            FrameRenderer(spec: spec, threads: threads).render(scene, dither: false, into: &buffer)
            outputs.insert(buffer.bytes)
        }
        #expect(outputs.count == 1)
    }

    @Test func ditherDependsOnlyOnPositionAndFrame() {
        let spec = FrameSpec(width: 96, height: 64)
        let scene = randomScene(seed: 3, width: 96, height: 64)
        func render(frame: Int) -> [UInt8] {
            var buffer = PixelBuffer(width: 96, height: 64, format: .rgb24)
            FrameRenderer(spec: spec).render(scene, frameIndex: frame, into: &buffer)
            return buffer.bytes
        }
        #expect(render(frame: 4) == render(frame: 4))
        #expect(render(frame: 4) != render(frame: 5))
    }

    /// Dithering changes each value by less than one level and keeps its average.
    @Test func ditherIsUnbiased() {
        let spec = FrameSpec(
            width: 128, height: 128, background: .color(RGBA(red: 0.30196, green: 0.5, blue: 0.1, alpha: 1)))
        var buffer = PixelBuffer(width: 128, height: 128, format: .rgb24)
        FrameRenderer(spec: spec).render(Scene(base: []), into: &buffer)
        let bytes = buffer.bytes
        for channel in 0..<3 {
            let values = stride(from: channel, to: bytes.count, by: 3).map { Double(bytes[$0]) }
            let target = [0.30196, 0.5, 0.1][channel] * 255
            #expect(values.allSatisfy { abs($0 - target) < 1 })
            #expect(abs(values.reduce(0, +) / Double(values.count) - target) < 0.01)
        }
    }

    /// The same on the fast RGBA path (a reduced grid and an opaque solid background),
    /// at the ends of the range, where a value plus its threshold sits just above 0 or
    /// just below 256 and must neither wrap nor clip.
    @Test(arguments: [0.0, 0.001, 0.3, 0.999, 1.0])
    func ditherIsUnbiasedOnTheFastPathAtTheEnds(value: Double) {
        let spec = FrameSpec(
            width: 320, height: 180, background: .color(RGBA(red: value, green: 1 - value, blue: value, alpha: 1)))
        var buffer = PixelBuffer(width: 320, height: 180, format: .rgba)
        let renderer = FrameRenderer(spec: spec)
        #expect(renderer.cellSize > 1, "not the reduced-grid path")
        renderer.render(Scene(base: []), frameIndex: 7, into: &buffer)
        let bytes = buffer.bytes
        for channel in 0..<3 {
            let values = stride(from: channel, to: bytes.count, by: 4).map { Double(bytes[$0]) }
            let target = (channel == 1 ? 1 - value : value) * 255
            #expect(
                values.allSatisfy { abs($0 - target) < 1 },
                "channel \(channel): \(values.min()!)...\(values.max()!) for \(target)")
            #expect(abs(values.reduce(0, +) / Double(values.count) - target) < 0.01)
        }
    }

    /// The fast RGBA path and the general path (RGB) agree to within one level: they
    /// order the same float arithmetic differently, so a value on a level boundary
    /// may land either side. A channel that is 0 everywhere stays exactly 0. A width
    /// that is not a multiple of four ends in pixels the fast path packs one by one.
    @Test(arguments: [320, 323])
    func fastAndGeneralPathsAgreeOnSaturatedColours(width: Int) {
        let spec = FrameSpec(width: width, height: 180, background: .color(.black))
        let scene = Scene(base: [
            Blob(color: RGBA(red: 0, green: 0, blue: 1, alpha: 1), center: SIMD2(0.4, 0.5), radius: SIMD2(0.3, 0.5))
        ])
        let renderer = FrameRenderer(spec: spec)
        #expect(renderer.cellSize > 1, "not the reduced-grid path")
        var rgba = PixelBuffer(width: width, height: 180, format: .rgba),
            rgb = PixelBuffer(width: width, height: 180, format: .rgb24)
        renderer.render(scene, frameIndex: 3, into: &rgba)
        renderer.render(scene, frameIndex: 3, into: &rgb)
        let fast = rgba.bytes, general = rgb.bytes
        var largest = 0, coloured = 0, opaque = true
        for pixel in 0..<(width * 180) {
            if fast[4 * pixel] != 0 || fast[4 * pixel + 1] != 0 { coloured += 1 }
            opaque = opaque && fast[4 * pixel + 3] == 255
            for channel in 0..<3 {
                largest = max(largest, abs(Int(fast[4 * pixel + channel]) - Int(general[3 * pixel + channel])))
            }
        }
        #expect(coloured == 0, "\(coloured) pixels have red or green")
        #expect(opaque)
        #expect(largest <= 1)
    }

    /// Every built-in preset at its first frame: the fast RGBA path against the general path.
    @Test(arguments: PresetFixtures.builtInNames)
    func fastAndGeneralPathsAgreeOnEveryPreset(name: String) throws {
        var preset = try PresetFixtures.builtIn(name)
        (preset.width, preset.height) = (640, 360)
        let scene = Animator(preset: preset).scene(at: 0)
        let renderer = FrameRenderer(spec: preset.frameSpec)
        var rgba = PixelBuffer(width: 640, height: 360, format: .rgba),
            rgb = PixelBuffer(width: 640, height: 360, format: .rgb24)
        renderer.render(scene, frameIndex: 0, into: &rgba)
        renderer.render(scene, frameIndex: 0, into: &rgb)
        let fast = rgba.bytes, general = rgb.bytes
        var largest = 0
        for pixel in 0..<(640 * 360) {
            for channel in 0..<3 {
                largest = max(largest, abs(Int(fast[4 * pixel + channel]) - Int(general[3 * pixel + channel])))
            }
        }
        #expect(largest <= 1)
    }

    @Test func bayerThresholdsAreAPermutation() {
        var ranks = Set<Int>()
        for y in 0..<64 {
            for x in 0..<64 { ranks.insert(Int(Dither.bayerThreshold(x: x, y: y) * 4096 - 0.5)) }
        }
        #expect(ranks == Set(0..<4096))
        #expect(Dither.bayerThreshold(x: 0, y: 0) == 0.5 / 4096)
    }
}
