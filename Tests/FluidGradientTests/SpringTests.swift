import FluidGradient
import Foundation
import Testing

/// DESIGN section 6: springs, retargets, frame-rate independence, loops and seeking.
@Suite struct SpringTests {
    /// Classical RK4 on m·x″ + c·x′ + k·(x − g) = 0 with a tiny step: an independent solution.
    static func integrate(_ spring: Spring, x: Double, v: Double, target: Double, time: Double) -> (Double, Double) {
        let steps = 20_000, h = time / Double(steps)
        var x = x, v = v
        func acceleration(_ x: Double, _ v: Double) -> Double {
            (-spring.stiffness * (x - target) - spring.damping * v) / spring.mass
        }
        for _ in 0..<steps {
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return (x, v)
    }

    /// Speed 1 is underdamped (ζ ≈ 0.79), 1.6 exactly critical, 2 overdamped; 1.6 ± ε
    /// take the series branch.
    @Test(arguments: [0.3, 1.0, 1.6, 1.6000001, 1.5999999, 2.0, 7.5])
    func closedFormMatchesNumericalIntegration(speed: Double) {
        let spring = Spring(speed: speed)
        for time in [0.01, 0.37, 1.0, 2.5] {
            let exact = spring.advance(position: 0.2, velocity: -0.4, target: 0.8, by: time)
            let numeric = Self.integrate(spring, x: 0.2, v: -0.4, target: 0.8, time: time)
            #expect(abs(exact.position - numeric.0) < 1e-9, "speed \(speed) t \(time)")
            #expect(abs(exact.velocity - numeric.1) < 1e-8, "speed \(speed) t \(time)")
        }
    }

    /// The textbook underdamped solution
    /// x(t) = g + e^(−ζωt)·(e₀ cos ω_d t + (v₀ + ζω e₀)/ω_d · sin ω_d t).
    @Test func matchesTheTextbookUnderdampedSolution() {
        let spring = Spring(speed: 1)  // m = 10, k = 100, c = 50
        let omega = (100.0 / 10).squareRoot(), zeta = 50 / (2 * (100.0 * 10).squareRoot())
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        let e0 = 0.2 - 0.8, v0 = -0.4
        for t in stride(from: 0.0, through: 3, by: 0.25) {
            let expected =
                0.8 + exp(-zeta * omega * t)
                * (e0 * cos(omegaD * t) + (v0 + zeta * omega * e0) / omegaD * sin(omegaD * t))
            #expect(abs(spring.advance(position: 0.2, velocity: v0, target: 0.8, by: t).position - expected) < 1e-12)
        }
    }

    @Test func stepsCompose() {
        let spring = Spring(speed: 0.8)
        let once = spring.advance(position: 1, velocity: 2, target: -1, by: 0.9)
        let half = spring.advance(position: 1, velocity: 2, target: -1, by: 0.45)
        let twice = spring.advance(position: half.position, velocity: half.velocity, target: -1, by: 0.45)
        #expect(abs(once.position - twice.position) < 1e-12)
        #expect(abs(once.velocity - twice.velocity) < 1e-12)
    }
}
