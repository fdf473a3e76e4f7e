import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

/// How long to render and which frames.
struct TimingOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Length of a sequence or video in seconds (default: the preset's, 10), rounded to whole frames: "
                + "round(SECONDS × fps) frames. With --loop, those frames ÷ fps are also the loop's period, so it "
                + "shapes a one-frame output's motion too.",
            valueName: "SECONDS"), transform: number)
    var duration: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Length in frames, instead of --duration (up to 86400 s of them).", valueName: "N"),
        transform: number)
    var frames: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The instant shown by a one-frame output (out.png, or - for one raw frame), in seconds, "
                + "0 to 86400 (default 0).",
            valueName: "SECONDS"), transform: number)
    var time: Double?

    @Option(
        text: ArgumentHelp(
            "Render only frames A to B (inclusive, counted from 0) of the full run; "
                + "they match the full run's frames exactly. Not for animated images, whose pieces do not join.",
            valueName: "A-B"))
    var frameRange: String?

    func validate() throws {
        if duration != nil && frames != nil {
            throw ValidationError("--duration and --frames both set the length; give one")
        }
        if let frames, frames < 1 {
            throw ValidationError("--frames must be at least 1, not \(frames)")
        }
        if let time, !(0...PresetLimits.duration.upperBound).contains(time) {
            throw ValidationError(
                "--time must be between 0 and \(Int(PresetLimits.duration.upperBound)) seconds, "
                    + "not \(ParameterRange.format(time))")
        }
    }

    func apply(to preset: inout Preset) throws {
        if let duration { preset.duration = try check(duration, "duration", PresetLimits.duration) }
        if let frames {
            let duration = Double(frames) / preset.fps
            guard duration <= PresetLimits.duration.upperBound else {
                throw CommandError.input(
                    "--frames: \(frames) frames at \(ParameterRange.format(preset.fps)) fps last longer than "
                        + "\(Int(PresetLimits.duration.upperBound)) s, the longest render; "
                        + "give at most \(Int(PresetLimits.duration.upperBound * preset.fps))")
            }
            preset.duration = duration
        }
    }

    /// `A-B` or `A`, inside `0..<frameCount`.
    static func parseFrameRange(_ text: String, frameCount: Int) throws(CommandError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard (1...2).contains(parts.count), let first = parts[0], let last = parts.last!, first >= 0, first <= last
        else {
            throw CommandError.input(
                "--frame-range: \"\(text)\" is not a range; expected A-B with 0 ≤ A ≤ B, such as 0-119")
        }
        guard last < frameCount else {
            throw CommandError.input(
                "--frame-range: \(text) goes past the last frame, \(frameCount - 1) "
                    + "(the render has \(frameCount) frames)")
        }
        return first...last
    }
}
