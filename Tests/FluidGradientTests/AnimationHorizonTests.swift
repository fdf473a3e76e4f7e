import FluidGradient
import Testing

/// The spring forgets, so a late instant is found from a checkpoint a bounded number of
/// steps back: the same state as stepping all the way from 0, to far below DESIGN's 1e-4.
@Suite struct AnimationHorizonTests {
    /// Free mode, stepped independently from t = 0 with ``Spring/advance`` per channel
    /// and the targets of DESIGN section 3 drawn from each step's own stream.
    @Test(arguments: [0.7, 1.0, 3.0])
    func aLateInstantMatchesSteppingFromTheStart(speed: Double) {
        var preset = Preset(colors: [RGBA(bytes: 255, 0, 0), RGBA(bytes: 0, 0, 255)])
        (preset.seed, preset.speed, preset.width, preset.height) = (9, speed, 160, 90)
        let animator = Animator(preset: preset)
        let spring = Spring(speed: speed)
        for (blob, interval) in animator.retargetIntervals.enumerated() {
            var start = SplitMix64(seed: 9, stream: 0, UInt64(blob), 0)
            let first = BlobPlacement.random(&start, ranges: preset.ranges, aspectRatio: 160.0 / 90)
            var position = [first.center.x, first.center.y, first.radius.x, first.radius.y, first.opacity]
            var velocity = [Double](repeating: 0, count: 5)
            let t = 300.0, steps = Int(t / interval)
            for step in 0...steps {
                var generator = SplitMix64(seed: 9, stream: 0, UInt64(blob), UInt64(step) + 1)
                let g = BlobPlacement.random(&generator, ranges: preset.ranges, aspectRatio: 160.0 / 90)
                let target = [g.center.x, g.center.y, g.radius.x, g.radius.y, g.opacity]
                let duration = step < steps ? interval : t - Double(steps) * interval
                for channel in 0..<5 {
                    (position[channel], velocity[channel]) = spring.advance(
                        position: position[channel], velocity: velocity[channel], target: target[channel], by: duration)
                }
            }
            let state = animator.motion(at: t)[blob]
            for channel in 0..<5 {
                #expect(abs(state.position[channel] - position[channel]) < 1e-9, "blob \(blob) channel \(channel)")
                #expect(abs(state.velocity[channel] - velocity[channel]) < 1e-8, "blob \(blob) channel \(channel)")
            }
        }
    }

    /// Seeking far ahead, back, and playing on give the same states as a fresh animator
    /// asked once, across many checkpoint blocks, in free mode and in a long loop.
    @Test(arguments: [false, true])
    func checkpointsGiveTheSameStateHoweverTheyAreReached(loop: Bool) {
        var preset = Preset(colors: [RGBA(bytes: 255, 0, 0), RGBA(bytes: 0, 255, 0)], highlights: [.white])
        (preset.seed, preset.speed, preset.loop, preset.duration, preset.fps) = (3, 6, loop, 3_600, 30)
        preset.ranges.retargetInterval = ParameterRange(0.05, 0.2)
        let wandering = Animator(preset: preset)
        var random = SplitMix64(seed: 77)
        // The first blocks (stepped from the start itself), then anywhere.
        let early = stride(from: 0.0, through: 40, by: 0.37).map { $0 }
        for t in early + (0..<30).map({ _ in random.next(in: 0...3_600) }) {
            _ = wandering.motion(at: t + random.next(in: -5...5))
            for dt in [0.0, 1.0 / 30, 0.5] {
                #expect(wandering.motion(at: t + dt) == Animator(preset: preset).motion(at: t + dt), "t \(t + dt)")
            }
        }
    }
}
