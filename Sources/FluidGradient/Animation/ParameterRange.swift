import Foundation

/// A closed range `min...max` a random parameter is drawn from, with an optional
/// step (the seed range slider's min, max and step).
public struct ParameterRange: Hashable, Sendable, CustomStringConvertible {
    /// The smallest value drawn.
    public var min: Double
    /// The largest value drawn.
    public var max: Double
    /// When set, draws snap to `min + n·step` (and never pass `max`).
    public var step: Double?

    /// The range `min...max`.
    ///
    /// - Parameters:
    ///   - min: The smallest value drawn.
    ///   - max: The largest value drawn, at least `min`.
    ///   - step: When given, draws snap to `min + n·step`.
    public init(_ min: Double, _ max: Double, step: Double? = nil) {
        self.min = min
        self.max = max
        self.step = step
    }

    /// The range `range`.
    ///
    /// - Parameters:
    ///   - range: The values drawn.
    ///   - step: When given, draws snap to `range.lowerBound + n·step`.
    public init(_ range: ClosedRange<Double>, step: Double? = nil) {
        self.init(range.lowerBound, range.upperBound, step: step)
    }

    /// `min + (max − min)·u` for `u` in [0, 1), snapped to the step if there is one.
    package func value(at u: Double) -> Double {
        let raw = min + (max - min) * u
        guard let step, step > 0 else { return raw }
        let snapped = min + ((raw - min) / step).rounded() * step
        return Swift.min(snapped, max)
    }

    package func draw(_ generator: inout SplitMix64) -> Double {
        value(at: generator.nextUnit())
    }

    /// Clamps a value into the range (the slider's clamping).
    package func clamp(_ value: Double) -> Double {
        Swift.min(Swift.max(value, min), max)
    }

    /// `0.15...0.75`, with `/0.05` for a step.
    public var description: String {
        var text = "\(ParameterRange.format(min))...\(ParameterRange.format(max))"
        if let step { text += "/\(ParameterRange.format(step))" }
        return text
    }

    /// Shortest round-tripping decimal for a value (no trailing `.0` on integers).
    package static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9e18 { return String(Int(value)) }
        return String(value)
    }
}

/// The ranges the random blobs are drawn from (DESIGN section 3), with the original
/// package's defaults.
public struct BlobRanges: Hashable, Sendable {
    /// `s`: the blob's x radius in unit space, within 0...4.
    public var size = ParameterRange(0.15, 0.75)
    /// `u`: the y radius is `s·max(W/H, 1)·u`, within 0...16.
    public var aspect = ParameterRange(0.25, 1.75)
    /// The blob's opacity, within 0...1.
    public var opacity = ParameterRange(0.5, 1.0)
    /// Seconds between retargets at speed 1 (divided by the speed), within 0.05...600.
    public var retargetInterval = ParameterRange(0.8, 1.2)

    /// The original package's ranges: size 0.15...0.75, aspect 0.25...1.75, opacity
    /// 0.5...1 and retargets every 0.8...1.2 seconds.
    public init() {}
}

/// Where a blob is, or is heading: centre and radius in unit space, and opacity.
package struct BlobPlacement: Hashable, Sendable {
    package var center: SIMD2<Double>
    package var radius: SIMD2<Double>
    package var opacity: Double

    package init(center: SIMD2<Double>, radius: SIMD2<Double>, opacity: Double) {
        self.center = center
        self.radius = radius
        self.opacity = opacity
    }

    /// One random placement (DESIGN section 3), drawn in this order: cx, cy, s, u, opacity.
    /// `aspectRatio` is W/H.
    package static func random(_ generator: inout SplitMix64, ranges: BlobRanges, aspectRatio: Double) -> BlobPlacement
    {
        let cx = generator.nextUnit(), cy = generator.nextUnit()
        let s = ranges.size.draw(&generator)
        let q = max(aspectRatio, 1) * ranges.aspect.draw(&generator)
        let opacity = ranges.opacity.draw(&generator)
        return BlobPlacement(center: SIMD2(cx, cy), radius: SIMD2(s, s * q), opacity: opacity)
    }
}

/// A range given as a command-line option's value that cannot be used.
package struct RangeArgumentError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the text.
    package enum Problem: Equatable, Sendable {
        /// The part after `/` is not a number above 0.
        case badStep
        /// The text is not `MIN...MAX` or a single number.
        case notARange
        case minAboveMax
        /// `min` or `max` is outside the option's bounds.
        case outOfBounds
        /// The rule every range is held to (``PresetLimits/rangeProblem(_:within:)``):
        /// the part at fault, if not the whole range, and why.
        case rule(part: String?, reason: PresetError.Reason)
    }

    /// The option, without its dashes: `blob-size`.
    package var option: String
    /// The value as given.
    package var text: String
    /// The option's allowed values.
    package var bounds: ClosedRange<Double>
    package var problem: Problem

    /// `--option: "text" why; expected ...`.
    package var description: String {
        let why: String
        switch problem {
        case .rule(let part, let reason):
            return "--\(option): \"\(text)\": " + [part, reason.description].compactMap { $0 }.joined(separator: " ")
        case .badStep: why = "has a bad step"
        case .notARange: why = "is not a range"
        case .minAboveMax: why = "has min greater than max"
        case .outOfBounds: why = "is out of bounds"
        }
        return "--\(option): \"\(text)\" \(why); expected MIN...MAX or MIN...MAX/STEP within "
            + "\(ParameterRange.format(bounds.lowerBound))...\(ParameterRange.format(bounds.upperBound))"
    }
}

extension ParameterRange {
    /// Parses `MIN...MAX` or `MIN...MAX/STEP` (a single number means `N...N`) and holds
    /// it to the rule a preset file's range is held to
    /// (``PresetLimits/rangeProblem(_:within:)``).
    ///
    /// - Parameters:
    ///   - text: the option's value.
    ///   - option: the option's name without dashes, which errors name.
    ///   - bounds: the option's allowed values.
    /// - Throws: ``RangeArgumentError`` saying what is wrong.
    package init(parsing text: String, option: String, bounds: ClosedRange<Double>) throws(RangeArgumentError) {
        let error = { (problem: RangeArgumentError.Problem) in
            RangeArgumentError(option: option, text: text, bounds: bounds, problem: problem)
        }
        var body = Substring(text.trimmingSpaces())
        var step: Double?
        if let slash = body.firstIndex(of: "/") {
            guard let value = Double(body[body.index(after: slash)...]), value > 0 else { throw error(.badStep) }
            step = value
            body = body[..<slash]
        }
        let parts = body.components(separatedBy: "...")
        let numbers = parts.map { Double($0.trimmingSpaces()) }
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw error(.notARange)
        }
        let low = numbers[0]!, high = numbers.last!!
        guard low <= high else { throw error(.minAboveMax) }
        guard bounds.contains(low), bounds.contains(high) else { throw error(.outOfBounds) }
        self.init(low, high, step: step)
        if let problem = PresetLimits.rangeProblem(self, within: bounds) {
            throw error(.rule(part: problem.part, reason: problem.reason))
        }
    }
}
