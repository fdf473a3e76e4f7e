import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// DESIGN section 6, "no common pause": over the built-in presets, the step across a
/// loop's seam is not systematically smaller than the loop's other steps. Measured as
/// the section states it: a 10 s loop at 160×90, 30 fps, 16-bit, dither off; a step is
/// the mean absolute change over all channels and pixels between consecutive frames.
/// `Scripts/loop-seam.sh` prints the same numbers from the command line's raw output.
@Suite struct LoopSeamTests {
    /// The seam step (last frame to frame 0), and the median and largest of the loop's other steps.
    static func seam(of preset: Preset) -> (seam: Double, median: Double, largest: Double) {
        var preset = preset
        (preset.width, preset.height, preset.fps, preset.duration, preset.loop) = (160, 90, 30, 10, true)
        let animator = Animator(preset: preset)
        let renderer = FrameRenderer(spec: preset.frameSpec)
        var buffer = PixelBuffer(width: 160, height: 90, format: .rgba64le)
        func frame(_ index: Int) -> [UInt16] {
            let scene = animator.scene(at: Double(index) / preset.fps)
            renderer.render(scene, frameIndex: index, dither: false, into: &buffer)
            return buffer.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        }
        func step(_ a: [UInt16], _ b: [UInt16]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
        }
        let first = frame(0)
        var previous = first
        var steps: [Double] = []
        for index in 1..<preset.frameCount {
            let current = frame(index)
            steps.append(step(previous, current))
            previous = current
        }
        return (step(previous, first), median(steps), steps.max()!)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    @Test func theSeamIsAnOrdinaryMomentAcrossTheBuiltInPresets() throws {
        let presets = try PresetLibrary.names.map { try PresetLibrary.builtIn($0) }
        let results = presets.map(Self.seam(of:))
        let ratios = results.map { $0.seam / $0.median }
        let table = zip(PresetLibrary.names, results).map { name, result in
            "\(name) \(String(format: "%.2f / %.2f = %.3f", result.seam, result.median, result.seam / result.median))"
        }.joined(separator: "; ")
        #expect(Self.median(ratios) >= 0.5, "seam / median step per preset: \(table)")
        #expect(ratios.filter { $0 < 0.3 }.count <= 2, "seam / median step per preset: \(table)")
        // And no jump: the seam is no larger than the loop's other steps.
        for (name, result) in zip(PresetLibrary.names, results) {
            #expect(result.seam <= result.largest, "\(name): seam \(result.seam), largest other step \(result.largest)")
        }
    }
}
