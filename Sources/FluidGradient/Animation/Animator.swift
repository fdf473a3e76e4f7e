/// One blob's animated values — centre x, centre y, radius x, radius y, opacity — as
/// lanes 0–4 of a vector (lanes 5–7 unused), so all five move in one operation.
public typealias BlobChannels = SIMD8<Double>

extension BlobChannels {
    init(_ placement: BlobPlacement) {
        self.init(
            placement.center.x, placement.center.y, placement.radius.x, placement.radius.y, placement.opacity, 0, 0, 0)
    }

    var placement: BlobPlacement {
        BlobPlacement(center: SIMD2(self[0], self[1]), radius: SIMD2(self[2], self[3]), opacity: self[4])
    }
}

/// A blob's state at an instant: where it is and how fast each value changes.
public struct BlobMotionState: Hashable, Sendable {
    public var position: BlobChannels
    public var velocity: BlobChannels
}

/// The time-stepped engine of DESIGN section 6: the scene at any time `t`.
///
/// Each blob retargets at fixed steps of its own interval, drawn once in the
/// preset's `retargetInterval` range (0.8...1.2 s) divided by the speed. At each step
/// it draws a new centre, radius and opacity as in DESIGN section 3, and each value
/// follows a ``Spring`` towards it, with velocity carried over the retarget.
/// Between steps the spring is solved exactly, so the state at `t` is a pure function
/// of `t`: the same at any frame rate, and the same when seeking.
///
/// In loop mode the targets repeat with the loop's period `L`, each blob retargeting
/// `N = max(2, round(L / interval))` times per loop, and the motion is the spring's
/// periodic solution: the state at `t + L` equals the state at `t`, velocity included,
/// so the seam is like any other frame step. The last target of the cycle is solved
/// for so that the loop passes through the starting scene at `t = 0`.
///
/// Random draws come from one ``SplitMix64`` stream per (seed, layer, blob, step),
/// so any step's draw is reached directly.
public final class Animator {
    public let preset: Preset
    public let width: Int
    public let height: Int
    /// The loop period in seconds, in loop mode.
    public let loopPeriod: Double?
    private var base: [BlobTrack]
    private var highlights: [BlobTrack]

    public init(preset: Preset, width: Int? = nil, height: Int? = nil) {
        self.preset = preset
        self.width = width ?? preset.width
        self.height = height ?? preset.height
        let loopPeriod = preset.loop ? Double(preset.frameCount) / preset.fps : nil
        self.loopPeriod = loopPeriod
        let aspect = Double(self.width) / Double(self.height)
        func tracks(layer: UInt64, colors: [RGBA], explicit: [Blob]?) -> [BlobTrack] {
            let blobs = explicit ?? colors.map { Blob(color: $0, center: .zero, radius: .zero) }
            return blobs.enumerated().map { index, blob in
                BlobTrack(
                    color: blob.color, explicitStart: explicit == nil ? nil : blob, preset: preset,
                    streamID: (layer, UInt64(index)), aspectRatio: aspect, loopPeriod: loopPeriod)
            }
        }
        base = tracks(layer: 0, colors: preset.colors, explicit: preset.blobs)
        highlights = tracks(layer: 1, colors: preset.highlights, explicit: preset.highlightBlobs)
    }

    /// The scene at `t` seconds, a finite time (a programming error otherwise). Outside a
    /// loop, the cost grows with `t` (the springs are stepped there).
    public func scene(at t: Double) -> Scene {
        precondition(t.isFinite, "Animator.scene(at:) needs a finite time, not \(t)")
        return Scene(
            base: base.indices.map { base[$0].blob(at: t) },
            highlights: highlights.indices.map { highlights[$0].blob(at: t) })
    }

    /// Each base blob's position and velocity at `t` (then the highlight blobs').
    public func motion(at t: Double) -> [BlobMotionState] {
        (base.indices.map { base[$0].state(at: t) }) + highlights.indices.map { highlights[$0].state(at: t) }
    }

    /// Seconds between retargets of each blob (base blobs, then highlights).
    public var retargetIntervals: [Double] { (base + highlights).map(\.interval) }
}

/// One blob's trajectory: its start, its targets and the spring between them.
struct BlobTrack {
    let color: RGBA
    let spring: Spring?
    let start: BlobChannels
    /// Seconds between retargets.
    let interval: Double
    private let seed: UInt64
    private let streamID: (layer: UInt64, blob: UInt64)
    private let ranges: BlobRanges
    private let aspectRatio: Double
    private let loop: LoopTargets?
    /// The state at the most recent retarget step computed: step n and its state.
    private var cache: (step: Int, state: BlobMotionState)

    init(
        color: RGBA, explicitStart: Blob?, preset: Preset, streamID: (UInt64, UInt64), aspectRatio: Double,
        loopPeriod: Double?
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
            start = BlobChannels(
                BlobPlacement(center: explicitStart.center, radius: explicitStart.radius, opacity: explicitStart.opacity))
        } else {
            start = BlobChannels(drawn)
        }
        guard preset.speed > 0 else {
            spring = nil
            interval = .infinity
            loop = nil
            cache = (0, BlobMotionState(position: start, velocity: .zero))
            return
        }
        let spring = Spring(speed: preset.speed)
        self.spring = spring
        if let loopPeriod {
            let steps = max(2, Int((loopPeriod / (rawInterval / preset.speed)).rounded()))
            interval = loopPeriod / Double(steps)
            let ranges = preset.ranges, seed = preset.seed
            let loop = LoopTargets(
                start: start, steps: steps, drawn: { BlobTrack.drawnTarget($0, seed: seed, streamID: streamID, ranges: ranges, aspectRatio: aspectRatio) },
                propagator: spring.propagator(over: interval), period: loopPeriod)
            self.loop = loop
            cache = (0, BlobMotionState(position: start, velocity: loop.startVelocity))
        } else {
            interval = rawInterval / preset.speed
            loop = nil
            cache = (0, BlobMotionState(position: start, velocity: .zero))
        }
    }

    /// The target the blob heads for during retarget step `step`.
    private func target(_ step: Int) -> BlobChannels {
        var step = step
        if let loop {
            step %= loop.steps
            if step == loop.steps - 1 { return loop.last }
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

    mutating func state(at t: Double) -> BlobMotionState {
        guard let spring else { return BlobMotionState(position: start, velocity: .zero) }
        var time = max(t, 0)
        if let loop {
            time = time.truncatingRemainder(dividingBy: loop.period)
        }
        let step = min(Int((time / interval).rounded(.down)), loop.map { $0.steps - 1 } ?? .max)
        if step < cache.step {
            cache = (0, BlobMotionState(position: start, velocity: loop?.startVelocity ?? .zero))
        }
        if cache.step < step {
            let full = spring.propagator(over: interval)
            while cache.step < step {
                cache.state = BlobTrack.advance(cache.state, towards: target(cache.step), with: full)
                cache.step += 1
            }
        }
        let elapsed = time - Double(step) * interval
        return BlobTrack.advance(cache.state, towards: target(step), with: spring.propagator(over: elapsed))
    }

    mutating func blob(at t: Double) -> Blob {
        let placement = state(at: t).position.placement
        return Blob(
            color: color, center: placement.center, radius: placement.radius,
            opacity: min(max(placement.opacity, 0), 1))
    }

    /// `x + (A − 1)·e + B·v` rather than `g + A·e + B·v`: equal, but exact at zero elapsed time.
    static func advance(_ state: BlobMotionState, towards target: BlobChannels, with p: Spring.Propagator) -> BlobMotionState {
        let e = state.position - target
        return BlobMotionState(
            position: state.position + (p.a - 1) * e + p.b * state.velocity, velocity: p.c * e + p.d * state.velocity)
    }
}

/// The targets of a loop and the velocity at its start, chosen so the motion is
/// periodic and passes through the start.
///
/// With `M` the spring's propagator over one step and `h = (1 − A, −C)`, one step
/// towards target `g` maps the state `s = (x, v)` to `M·s + g·h`. Over the `N` steps
/// of a loop, `s_N = M^N·s₀ + Σ g_n·M^(N−1−n)·h`. Periodicity `s_N = s₀` with the
/// position `x₀` given is two linear equations in the start velocity `v₀` and the
/// last target `g_(N−1)`, solved per channel.
///
/// The first `N − 1` targets are drawn (``BlobTrack/drawnTarget(_:seed:streamID:ranges:aspectRatio:)``,
/// found again when needed); only the solved last one is kept.
struct LoopTargets {
    /// N: one target per step, the drawn ones and the solved last one.
    let steps: Int
    let last: BlobChannels
    let startVelocity: BlobChannels
    let period: Double

    init(start: BlobChannels, steps: Int, drawn: (Int) -> BlobChannels, propagator m: Spring.Propagator, period: Double) {
        self.steps = steps
        self.period = period
        let h = (x: 1 - m.a, v: -m.c)
        // R = Σ_{n < N−1} g_n·M^(N−1−n)·h. The powers are built once, from the last
        // target back (linear in N), and summed in target order.
        let drawnCount = steps - 1
        var weights = [(x: Double, v: Double)](repeating: (0, 0), count: drawnCount)
        var p = Spring.Propagator.identity
        for n in (0..<drawnCount).reversed() {
            p = m.after(p)
            weights[n] = (p.a * h.x + p.b * h.v, p.c * h.x + p.d * h.v)
        }
        // Q = I − M^N, the chain's last power one step further.
        let power = m.after(p)
        let q = Spring.Propagator(a: 1 - power.a, b: -power.b, c: -power.c, d: 1 - power.d)
        var rx = BlobChannels(), rv = BlobChannels()
        for n in 0..<drawnCount {
            let g = drawn(n)
            rx += g * weights[n].x
            rv += g * weights[n].v
        }
        // [Q₀₁  −h_x] [v₀     ]   [R_x − Q₀₀·x₀]
        // [Q₁₁  −h_v] [g_(N−1)] = [R_v − Q₁₀·x₀]
        let bx = rx - q.a * start, bv = rv - q.c * start
        let determinant = -q.b * h.v + h.x * q.d
        let velocity = (-h.v * bx + h.x * bv) / determinant
        let last = (q.b * bv - q.d * bx) / determinant
        startVelocity = velocity
        self.last = last
    }
}
