/// One blob's trajectory: its start, its targets and the spring between them.
///
/// The blob retargets at `phase + n·interval`; step `n` heads for target `n`. In a
/// loop, the stretch before the first retarget (from the seam to `phase`) heads for
/// the loop's last target, the one that spans the seam (``LoopTargets``).
///
/// The spring forgets a state after `H` steps (``Spring/memory(over:)``), so the state
/// at step `n` is found from a checkpoint, not from step 0: steps are grouped in blocks
/// of `K = ⌈H/2⌉`, and the state at the start `s ≥ H` of a block is defined as `H` steps
/// from rest at the target of step `s − H`, which differs from stepping all the way from
/// 0 by less than 2⁻³² of a state. Any instant is then at most `H + K` steps away, a
/// bound set by the spring, not by `t` or the loop's length, and the state is the same
/// whether frames are played through or sought.
struct BlobTrack {
    let color: RGBA
    let spring: Spring?
    let start: BlobChannels
    /// Seconds between retargets.
    let interval: Double
    /// Seconds from `t = 0` to the first retarget: 0 outside a loop, in `[0, interval)` in one.
    let phase: Double
    private let seed: UInt64
    private let streamID: (layer: UInt64, blob: UInt64)
    private let ranges: BlobRanges
    private let aspectRatio: Double
    private let loop: LoopTargets?
    /// The state at the first retarget, `t = phase`.
    private let origin: BlobMotionState
    /// H: the steps the spring takes to forget a state.
    private let horizon: Int
    /// K: the steps in a checkpoint block.
    private let block: Int
    /// The state at the most recent retarget step computed: step n and its state.
    private var cache: (step: Int, state: BlobMotionState)

    /// - Parameters:
    ///   - explicitStart: the preset's blob, when the scene is explicit; nil to draw the start.
    ///   - streamID: the (layer, blob) the blob's random streams are keyed by.
    ///   - aspectRatio: W/H, for the drawn radii (DESIGN section 3).
    ///   - loopPeriod: the loop's period in seconds, or nil outside a loop.
    ///   - phaseFraction: in a loop, the first retarget's time as a share of the interval, in `[0, 1)`.
    init(
        color: RGBA, explicitStart: Blob?, preset: Preset, streamID: (UInt64, UInt64), aspectRatio: Double,
        loopPeriod: Double?, phaseFraction: Double
    ) {
        self.color = color
        self.seed = preset.seed
        self.streamID = streamID
        self.ranges = preset.ranges
        self.aspectRatio = aspectRatio
        var generator = SplitMix64(seed: preset.seed, stream: streamID.0, streamID.1, 0)
        let drawn = BlobPlacement.random(&generator, ranges: preset.ranges, aspectRatio: aspectRatio)
        let rawInterval = preset.ranges.retargetInterval.draw(&generator)
        if let explicitStart {
            let (center, radius) = (explicitStart.center, explicitStart.radius)
            start = BlobChannels(BlobPlacement(center: center, radius: radius, opacity: explicitStart.opacity))
        } else {
            start = BlobChannels(drawn)
        }
        guard preset.speed > 0 else {
            (spring, interval, phase, loop, horizon, block) = (nil, .infinity, 0, nil, 1, 1)
            origin = BlobMotionState(position: start, velocity: .zero)
            cache = (0, origin)
            return
        }
        let spring = Spring(speed: preset.speed)
        self.spring = spring
        if let loopPeriod {
            let steps = max(2, Int((loopPeriod / (rawInterval / preset.speed)).rounded()))
            interval = loopPeriod / Double(steps)
            phase = phaseFraction * interval
            let (seed, ranges) = (preset.seed, preset.ranges)
            let loop = LoopTargets(start: start, steps: steps, period: loopPeriod, phase: phase, spring: spring) {
                BlobTrack.drawnTarget($0, seed: seed, streamID: streamID, ranges: ranges, aspectRatio: aspectRatio)
            }
            self.loop = loop
            origin = loop.firstRetarget
        } else {
            interval = rawInterval / preset.speed
            phase = 0
            loop = nil
            origin = BlobMotionState(position: start, velocity: .zero)
        }
        horizon = spring.memory(over: interval)
        block = (horizon + 1) / 2
        cache = (0, origin)
    }

    /// The target the blob heads for during retarget step `step`.
    private func target(_ step: Int) -> BlobChannels {
        var step = step
        if let loop {
            step %= loop.steps
            if step == loop.solvedStep { return loop.solved }
        }
        return BlobTrack.drawnTarget(step, seed: seed, streamID: streamID, ranges: ranges, aspectRatio: aspectRatio)
    }

    /// The random target of retarget step `step`: drawn from its own stream, so any step
    /// is found without the ones before it (and a loop keeps none of them in memory).
    static func drawnTarget(
        _ step: Int, seed: UInt64, streamID: (layer: UInt64, blob: UInt64), ranges: BlobRanges, aspectRatio: Double
    ) -> BlobChannels {
        var generator = SplitMix64(seed: seed, stream: streamID.layer, streamID.blob, UInt64(step) + 1)
        return BlobChannels(BlobPlacement.random(&generator, ranges: ranges, aspectRatio: aspectRatio))
    }

    /// The blob's position and velocity at `t` seconds (a finite time).
    mutating func state(at t: Double) -> BlobMotionState {
        guard let spring else { return origin }
        var time = max(t, 0)
        if let loop {
            time = time.truncatingRemainder(dividingBy: loop.period)
            if time < phase {
                return loop.start.advanced(towards: loop.seamTarget, with: spring.propagator(over: time))
            }
            time -= phase
        }
        // Capped far beyond any frame's time, so the conversion cannot trap.
        let step = min(Int(min((time / interval).rounded(.down), 0x1p52)), loop.map { $0.steps - 1 } ?? .max)
        let full = spring.propagator(over: interval)
        // A block that starts within H steps of 0 is stepped from the start itself.
        let checkpoint = step / block * block
        if step < cache.step || cache.step < checkpoint {
            let first = checkpoint - horizon
            cache = first < 0 ? (0, origin) : (first, BlobMotionState(position: target(first), velocity: .zero))
        }
        while cache.step < step {
            cache.state = cache.state.advanced(towards: target(cache.step), with: full)
            cache.step += 1
        }
        let elapsed = time - Double(step) * interval
        return cache.state.advanced(towards: target(step), with: spring.propagator(over: elapsed))
    }

    /// The blob drawn at `t` seconds, its opacity clamped to 0...1.
    mutating func blob(at t: Double) -> Blob {
        let placement = state(at: t).position.placement
        return Blob(
            color: color, center: placement.center, radius: placement.radius,
            opacity: min(max(placement.opacity, 0), 1))
    }
}

extension BlobMotionState {
    /// The state after the propagator `p`'s time, pulled towards `target`.
    ///
    /// `x + (A − 1)·e + B·v` rather than `g + A·e + B·v`: equal, but exact at zero elapsed time.
    func advanced(towards target: BlobChannels, with p: Spring.Propagator) -> BlobMotionState {
        let e = position - target
        return BlobMotionState(position: position + (p.a - 1) * e + p.b * velocity, velocity: p.c * e + p.d * velocity)
    }
}
