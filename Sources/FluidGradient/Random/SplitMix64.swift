/// The project's own seeded generator (SplitMix64, Steele, Lea & Flood 2014).
///
/// DESIGN section 9: frames must not depend on `SystemRandomNumberGenerator` or on
/// `random(in:using:)`, whose algorithm may change between Swift releases. So both
/// the bit generator and its conversion to floating point are defined here.
package struct SplitMix64: Sendable {
    package private(set) var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// An independent stream for a tuple of identifiers, such as
    /// `(seed, layer, blob, retarget)`: each one is folded in through the mixer,
    /// so any element of any stream can be reached without replaying the others.
    package init(seed: UInt64, stream: UInt64...) {
        var mixed = SplitMix64.mix(seed)
        for part in stream {
            mixed = SplitMix64.mix(mixed ^ (part &* 0x9E37_79B9_7F4A_7C15))
        }
        state = mixed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// Uniform in [0, 1): the top 53 bits scaled by 2⁻⁵³.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in `lower...upper`, as `lower + (upper − lower)·u`.
    package mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
