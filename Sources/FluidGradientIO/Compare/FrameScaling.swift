import FluidGradient

/// What compare does with an actual frame smaller than the expected one.
package enum FrameScaling: String, CaseIterable, Sendable {
    /// Nothing: frames of another size are reported as such.
    case none
    /// Scales it up bilinearly to the expected size, as a player shows a smaller encode
    /// at its display size (pixel centres aligned, edge pixels repeated, as ffmpeg's
    /// `scale=flags=bilinear`), when both sides have the same aspect ratio exactly.
    case bilinear

    /// `actual` as it is compared with `expected`: scaled up when this scaling applies.
    ///
    /// - Parameters:
    ///   - actual: the frame to check.
    ///   - expected: the golden frame, whose size an upscale reaches.
    /// - Returns: the frame to compare, and its own size (`WxH`) when it was scaled up.
    func fit(_ actual: FrameSamples, to expected: FrameSamples) -> (frame: FrameSamples, upscaledFrom: String?) {
        let smaller =
            actual.width <= expected.width && actual.height <= expected.height
            && (actual.width, actual.height) != (expected.width, expected.height)
        let sameAspect = actual.width * expected.height == expected.width * actual.height
        guard self == .bilinear, smaller, sameAspect else { return (actual, nil) }
        let upscaled = actual.upscaledBilinear(width: expected.width, height: expected.height)
        return (upscaled, "\(actual.width)x\(actual.height)")
    }
}
