import Foundation

/// A damped spring `m·x″ + c·x′ + k·(x − g) = 0`, solved in closed form.
///
/// With decay `a = c / 2m`, `ω² = k / m` and `β = a² − ω²`, over a time `t` the
/// displacement `e = x − g` and velocity `v` evolve as
///
///     e(t) = e^(−a t) · [ e₀·(C + a·S) + v₀·S ]
///     v(t) = e^(−a t) · [ v₀·(C − a·S) − e₀·ω²·S ]
///
/// where `C = Σ βⁿ t²ⁿ/(2n)!` and `S = Σ βⁿ t²ⁿ⁺¹/(2n+1)!`: cosh and sinh/√β when the
/// spring is overdamped (β > 0), cos and sin/√−β when underdamped, and their series
/// near critical damping, so one formula is exact and stable across all three.
/// Being exact, it gives the same state at a time however the time is stepped.
package struct Spring: Hashable, Sendable {
    package let mass: Double
    package let stiffness: Double
    package let damping: Double

    package init(mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// The original's `CASpringAnimation`: mass 10/speed, stiffness 100, damping 50.
    package init(speed: Double) {
        self.init(mass: 10 / speed, stiffness: 100, damping: 50)
    }

    /// The linear map over time `t`: `(e, v) ↦ (A·e + B·v, C·e + D·v)`.
    package struct Propagator: Hashable, Sendable {
        package var a: Double, b: Double, c: Double, d: Double

        package static let identity = Propagator(a: 1, b: 0, c: 0, d: 1)

        /// `self` after `other`.
        package func after(_ other: Propagator) -> Propagator {
            Propagator(
                a: a * other.a + b * other.c, b: a * other.b + b * other.d,
                c: c * other.a + d * other.c, d: c * other.b + d * other.d)
        }
    }

    package func propagator(over t: Double) -> Propagator {
        let decay = damping / (2 * mass)
        let omega2 = stiffness / mass
        let beta = decay * decay - omega2
        let z = beta * t * t
        // e^(−a t)·C and e^(−a t)·S
        let ec: Double, es: Double
        if abs(z) < 1e-2 {
            let envelope = exp(-decay * t)
            ec = envelope * (1 + z / 2 + z * z / 24 + z * z * z / 720)
            es = envelope * t * (1 + z / 6 + z * z / 120 + z * z * z / 5040)
        } else if beta > 0 {
            let root = beta.squareRoot()
            let grow = exp((root - decay) * t), shrink = exp(-(root + decay) * t)
            ec = (grow + shrink) / 2
            es = (grow - shrink) / (2 * root)
        } else {
            let root = (-beta).squareRoot()
            let envelope = exp(-decay * t)
            ec = envelope * cos(root * t)
            es = envelope * sin(root * t) / root
        }
        return Propagator(a: ec + decay * es, b: es, c: -omega2 * es, d: ec - decay * es)
    }

    /// Position and velocity after `t`, from `position` and `velocity`, pulled towards `target`.
    package func advance(position: Double, velocity: Double, target: Double, by t: Double) -> (
        position: Double, velocity: Double
    ) {
        let p = propagator(over: t)
        let e = position - target
        return (position + (p.a - 1) * e + p.b * velocity, p.c * e + p.d * velocity)
    }
}

extension Spring.Propagator {
    /// The map applied to a (displacement, velocity) pair.
    func applied(to state: (x: Double, v: Double)) -> (x: Double, v: Double) {
        (a * state.x + b * state.v, c * state.x + d * state.v)
    }

    /// `h = (1 − A, −C)`: what a unit target adds to (position, velocity) over the
    /// propagator's time, from rest at zero.
    var targetResponse: (x: Double, v: Double) { (1 - a, -c) }
}

extension Spring {
    /// What the spring still remembers of a state once it has forgotten it: below 2⁻³²
    /// (2e-10) of it, far below DESIGN's 1e-4 and the renderer's float precision (1e-7).
    static let forgotten = 0x1p-32

    /// How many steps of `interval` the spring takes to forget a state: the smallest
    /// `H ≥ 1` with every entry of the propagator over `H·interval` below ``forgotten``.
    /// A damped spring always forgets; its slowest mode decays at no less than 2/s for
    /// any speed, so H stays near 22/(2·interval) at worst (2,200 steps of 5 ms).
    ///
    /// - Parameter interval: seconds per step, more than 0.
    /// - Returns: H, capped at 1,000,000 steps.
    func memory(over interval: Double) -> Int {
        let step = propagator(over: interval)
        var power = step, steps = 1
        while max(abs(power.a), abs(power.b), abs(power.c), abs(power.d)) >= Spring.forgotten, steps < 1_000_000 {
            power = step.after(power)
            steps += 1
        }
        return steps
    }
}
