/// The targets of a loop and the velocity at its start, chosen so the motion is
/// periodic with the loop's period and passes through the start at `t = 0`.
///
/// A blob retargets at `φ + n·I`: `N` steps of `I` per period `L = N·I`, with its
/// phase `0 ≤ φ < I`. Step `n < N − 1` heads for target `g_n` from `φ + n·I`; the last
/// target, `g_(N−1)`, is the one the blob heads for from `φ − I` to `φ`, across the
/// seam: over `[0, φ)` and again over `[φ + (N−1)·I, L)`.
///
/// With `P(τ)` the spring's propagator over `τ` and `h(τ) = (1 − A, −C)`, a stretch of
/// `τ` towards `g` maps the state `s = (x, v)` to `P(τ)·s + g·h(τ)`. Chained over the
/// period's stretches, `s(L) = T·s(0) + Σ g·W`: `T` is the product of the
/// propagators, and each stretch's weight `W` is its `h` carried through the
/// propagators after it. All targets are drawn but one, `g_u`; periodicity
/// `s(L) = s(0)` with the position `x(0)` given is two linear equations in the start
/// velocity and `g_u`, solved per channel.
///
/// `g_u` is whichever of the seam's own target `g_(N−1)` and the one before it,
/// `g_(N−2)`, gives the better-conditioned equations (the larger determinant): the one
/// that pulls harder on `x(0)`. A target with little pull would have to lie far away
/// to bring the loop through the start; the seam's own target has little pull when
/// the seam comes just after it is set (φ near I), the one before it when an
/// underdamped spring's swing happens to cancel its effect at the seam.
///
/// Targets further back from the seam than the spring remembers (``Spring/memory(over:)``)
/// add nothing, so only the last `H` stretches are summed, whatever N. The drawn targets
/// are found again when needed (``BlobTrack/drawnTarget(_:seed:streamID:ranges:aspectRatio:)``);
/// only the solved one is kept.
struct LoopTargets {
    /// N: one target per step.
    let steps: Int
    /// L, in seconds.
    let period: Double
    /// u: the step whose target is solved, `N − 1` or `N − 2`.
    let solvedStep: Int
    /// The solved target `g_u`.
    let solved: BlobChannels
    /// `g_(N−1)`, the target across the seam (solved or drawn).
    let seamTarget: BlobChannels
    /// The state at `t = 0`: the given start position and the solved velocity.
    let start: BlobMotionState
    /// The state at the first retarget, `t = φ`.
    let firstRetarget: BlobMotionState

    /// - Parameters:
    ///   - start: the position at `t = 0`.
    ///   - steps: N, at least 2.
    ///   - period: L, in seconds; the seconds between retargets are `I = L / N`.
    ///   - phase: φ, the first retarget's time, in `[0, I)`.
    ///   - drawn: the drawn target of step `n`, for every `n` but the solved one.
    init(
        start position: BlobChannels, steps: Int, period: Double, phase: Double, spring: Spring,
        drawn: (Int) -> BlobChannels
    ) {
        self.steps = steps
        // Kept as given, not as N·I, so that t = L is exactly the seam.
        self.period = period
        let interval = period / Double(steps)
        let m = spring.propagator(over: interval)
        let before = spring.propagator(over: phase), after = spring.propagator(over: interval - phase)
        // From the last stretch back: `carry` is the product of the propagators after
        // the stretch at hand, built once. The two candidates' weights are kept apart,
        // and every other target's pull summed into R.
        var carry = Spring.Propagator.identity
        var rx = BlobChannels(), rv = BlobChannels()
        var weights = [(x: 0.0, v: 0.0), (x: 0.0, v: 0.0)]  // of g_(N−1), g_(N−2)
        func stretch(_ p: Spring.Propagator, towards step: Int) {
            let weight = carry.applied(to: p.targetResponse)
            if step >= steps - 2 {
                let k = steps - 1 - step
                weights[k] = (weights[k].x + weight.x, weights[k].v + weight.v)
            } else {
                let g = drawn(step)
                rx += g * weight.x
                rv += g * weight.v
            }
            carry = carry.after(p)
        }
        // Stretches further back than the spring remembers add nothing (below
        // Spring.forgotten), so the pass stops there: its cost is bounded, whatever N.
        func remembers() -> Bool { max(abs(carry.a), abs(carry.b), abs(carry.c), abs(carry.d)) >= Spring.forgotten }
        stretch(after, towards: steps - 1)
        for n in (0..<(steps - 1)).reversed() {
            stretch(m, towards: n)
            if !remembers() { break }
        }
        if remembers() { stretch(before, towards: steps - 1) }
        // Q = I − T.
        let q = Spring.Propagator(a: 1 - carry.a, b: -carry.b, c: -carry.c, d: 1 - carry.d)
        let determinants = weights.map { -q.b * $0.v + $0.x * q.d }
        let k = abs(determinants[0]) >= abs(determinants[1]) ? 0 : 1
        let (w, other, otherStep) = (weights[k], weights[1 - k], steps - 2 + k)
        solvedStep = steps - 1 - k
        let g = drawn(otherStep)
        rx += g * other.x
        rv += g * other.v
        // [Q₀₁  −w_x] [v₀ ]   [R_x − Q₀₀·x₀]
        // [Q₁₁  −w_v] [g_u] = [R_v − Q₁₀·x₀]
        let bx = rx - q.a * position, bv = rv - q.c * position
        let determinant = determinants[k]
        let velocity = (-w.v * bx + w.x * bv) / determinant
        solved = (q.b * bv - q.d * bx) / determinant
        seamTarget = solvedStep == steps - 1 ? solved : drawn(steps - 1)
        start = BlobMotionState(position: position, velocity: velocity)
        firstRetarget = start.advanced(towards: seamTarget, with: before)
    }
}
