/// The allowed values of each preset parameter, shared by the preset loader and the CLI
/// so both give the same limits.
package enum PresetLimits {
    package static let speed = 0.0...10.0
    package static let blur = 0.0...1.0
    package static let pointScale = 0.25...8.0
    package static let fps = 1.0...240.0
    package static let duration = 0.001...86_400.0
    /// Each side of the frame, in pixels.
    package static let side = 1...16_384
    /// Width × height, in pixels (a 8192×8192 RGBA frame is 256 MiB).
    package static let maximumPixels = 8192 * 8192
    package static let blobSize = 0.0...4.0
    package static let blobAspect = 0.0...16.0
    package static let opacity = 0.0...1.0
    package static let retargetInterval = 0.05...600.0
    package static let seed = 0.0...9_007_199_254_740_991.0
    package static let colorCount = 1...64
    /// The most colours a palette is taken with (`palette -n`).
    package static let paletteCount = 1...16
    /// An explicit blob's centre and radius, each coordinate, in frame units.
    package static let blobCoordinate = -100.0...100.0
    /// A gradient's angle, in degrees.
    package static let gradientAngle = -36_000.0...36_000.0
    /// Grain's amount: 0 is none, 1 the layer's full 0...1.
    package static let grainAmount = 0.0...1.0
    /// A grain cell's side, in points.
    package static let grainSize = 0.5...8.0

    /// The one rule for a range of a key bounded by `bounds`, as preset files, the command
    /// line and ``Preset/validate()`` all apply it: min and max inside `bounds`, min ≤ max,
    /// and a step, when there is one, above 0 and at most `bounds`' upper end (so finite).
    ///
    /// - Parameters:
    ///   - range: the range as read or built.
    ///   - bounds: the key's allowed values, such as ``blobSize``.
    /// - Returns: the part at fault (`min`, `max`, `step`, or nil for the range as a
    ///   whole) and why, or nil when the range is usable.
    package static func rangeProblem(
        _ range: ParameterRange, within bounds: ClosedRange<Double>
    ) -> (part: String?, reason: PresetError.Reason)? {
        for (part, value) in [("min", range.min), ("max", range.max)] where !bounds.contains(value) {
            return (part, .outOfRange(ParameterRange.format(value), allowed: bounds))
        }
        guard range.min <= range.max else { return (nil, .minAboveMax(min: range.min, max: range.max)) }
        guard let step = range.step else { return nil }
        guard (0...bounds.upperBound).contains(step) else {
            return ("step", .outOfRange(ParameterRange.format(step), allowed: 0...bounds.upperBound))
        }
        return step > 0 ? nil : ("step", .stepNotPositive)
    }

    /// Checks how many explicit blobs a list holds: 1 to 64 base blobs (a scene needs
    /// one), and up to 64 highlight blobs.
    ///
    /// - Parameters:
    ///   - count: the length of the list.
    ///   - highlights: whether it is the `highlightBlobs` list, which may be empty.
    /// - Returns: what is wrong, or nil.
    package static func checkBlobCount(_ count: Int, highlights: Bool) -> PresetError.Reason? {
        let allowed = (highlights ? 0 : colorCount.lowerBound)...colorCount.upperBound
        return allowed.contains(count) ? nil : .wrongCount(found: count, allowed: allowed, blobs: true)
    }

    /// Checks a frame size.
    ///
    /// - Parameters:
    ///   - width: the width in pixels.
    ///   - height: the height in pixels.
    /// - Returns: what is wrong, or nil.
    package static func checkSize(width: Int, height: Int) -> PresetError.Reason? {
        guard side.contains(width), side.contains(height) else { return .unusableSize(width: width, height: height) }
        guard width * height <= maximumPixels else { return .sizeTooLarge(width: width, height: height) }
        return nil
    }

    /// "`value` is outside the allowed range a...b", for a value as written.
    package static func outside(_ value: String, _ bounds: ClosedRange<Double>) -> String {
        "\(value) is outside the allowed \(describe(bounds))"
    }

    /// `range a...b`.
    package static func describe(_ bounds: ClosedRange<Double>) -> String {
        "range \(ParameterRange.format(bounds.lowerBound))...\(ParameterRange.format(bounds.upperBound))"
    }

    /// Parses `WxH` (`1920x1080`); nil when it is not of that form.
    package static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.trimmingSpaces().asciiLowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }
}
