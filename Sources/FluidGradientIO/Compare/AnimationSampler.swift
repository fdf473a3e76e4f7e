import FluidGradient

/// An animation's frames taken at a fixed rate, so that they pair with a sequence of
/// frames rendered at that rate: sample `k` is the frame that shows at the middle of the
/// k-th frame interval, `(k + ½) / rate` seconds in, as a player would show it then. The
/// middle, not the start, because containers round times (WebP to whole milliseconds):
/// frame 1 of a 60 fps WebP starts at 17 ms, after the instant 1/60 s.
final class AnimationSampler: DecodedFrames {
    /// Samples per second.
    let rate: Double
    /// How many samples the animation gives: its length times the rate, at least 1.
    let count: Int
    private let frames: TimedFrames
    /// When each frame stops showing, in seconds from the start.
    private let ends: [Double]
    private var shown: (index: Int, samples: FrameSamples)?
    private var position = 0

    /// - Parameters:
    ///   - frames: the animation, not yet read.
    ///   - rate: frames per second; nil to take the animation's own, which needs frames of
    ///     one duration (to the millisecond that containers round to).
    /// - Throws: ``DecodeError/unevenFrames(path:frames:shortest:longest:)`` when `rate` is nil
    ///   and the frames' durations differ.
    init(_ frames: TimedFrames, rate: Double?) throws {
        self.frames = frames
        var ends: [Double] = []
        var total = 0.0
        for duration in frames.durations {
            total += duration
            ends.append(total)
        }
        self.ends = ends
        if let rate {
            self.rate = rate
        } else if frames.durations.count == 1 {
            // One frame, its own rate: one sample (and a still image, of no duration, is one).
            self.rate = 1 / max(total, 1e-9)
        } else {
            self.rate = try Self.ownRate(of: frames.durations, total: total, path: frames.path)
        }
        count = max(1, Int((total * self.rate).rounded()))
    }

    /// Frames per second of frames that all last as long, within the millisecond that
    /// containers round to.
    private static func ownRate(of durations: [Double], total: Double, path: String) throws -> Double {
        let mean = total / Double(durations.count)
        let shortest = durations.min()!, longest = durations.max()!
        guard mean > 0, longest - mean <= 0.001 + 1e-9, mean - shortest <= 0.001 + 1e-9 else {
            throw DecodeError.unevenFrames(
                path: path, frames: durations.count, shortest: mean > 0 ? shortest : nil,
                longest: mean > 0 ? longest : nil)
        }
        return Double(durations.count) / total
    }

    /// One frame that lasts no time: it shows whenever the other side's frames do.
    var isStill: Bool { ends == [0] }

    func next() throws -> FrameSamples? {
        guard position < count else { return nil }
        let instant = (Double(position) + 0.5) / rate
        // The first frame still showing at the instant; past the end, the last frame holds.
        let target = ends[(shown?.index ?? 0)...].firstIndex { $0 > instant } ?? ends.count - 1
        while shown == nil || shown!.index < target {
            guard let samples = try frames.next() else {
                let decoded = (shown?.index ?? -1) + 1
                throw DecodeError.fewerFrames(path: frames.path, decoded: decoded, listed: ends.count)
            }
            shown = ((shown?.index ?? -1) + 1, samples)
        }
        position += 1
        return shown!.samples
    }
}
