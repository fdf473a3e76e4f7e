import FluidGradient
import Foundation

/// Per-title rate: each loop's constant rate factor chosen by measurement, the highest
/// (the fewest bytes) whose encode of a one-second excerpt of the loop meets the codec's
/// quality bar with a margin, found from the codec's usual rate by a guess and steps.
///
/// The excerpt is the loop's middle second, encoded as the loop is and measured at three
/// instants against the display-size render (``BundleMeasurement``). A loop that then
/// misses the bar whole is encoded again a step lower (``BundleWriter``).
package struct RateSearch: Sendable {
    /// What a loop must meet: PSNR at least `psnr` dB and the largest error at most
    /// `largest` levels, over the measured instants at the display size.
    package struct Bar: Sendable, Equatable {
        package var psnr: Double
        package var largest: Double

        package init(psnr: Double, largest: Double) {
            self.psnr = psnr
            self.largest = largest
        }

        /// Whether `result` meets the bar, less `margin` (dB, and levels twice as much).
        package func isMet(by result: BundleMeasurement.Result, margin: Double = 0) -> Bool {
            result.psnr >= psnr + margin && result.largest <= largest - 2 * margin
        }
    }

    /// A codec's rates: where the search starts, its bounds and its step.
    package struct Ladder: Sendable, Equatable {
        package var start: Int
        package var lowest: Int
        package var highest: Int
        package var step: Int
        /// PSNR lost per unit of rate, typically: what the guess after the start assumes.
        package var slope: Double

        package init(start: Int, lowest: Int, highest: Int, step: Int, slope: Double) {
            self.start = start
            self.lowest = lowest
            self.highest = highest
            self.step = step
            self.slope = slope
        }
    }

    /// The excerpt's margin over the bar: its three instants read up to 0.3 dB better than
    /// the loop's five (measured on neon, default and dusk).
    package static let margin = 0.4

    /// Encodes the excerpt at a rate into a file and returns its path.
    let encode: @Sendable (_ crf: Int) throws -> String
    /// Measures an encoded excerpt.
    let measure: @Sendable (_ path: String) throws -> BundleMeasurement.Result
    let bar: Bar
    let ladder: Ladder

    /// A search of `ladder` for the highest rate whose excerpt, encoded by `encode` (which
    /// returns the file's path, removed after `measure`), meets `bar` with ``margin``.
    package init(
        encode: @escaping @Sendable (_ crf: Int) throws -> String,
        measure: @escaping @Sendable (_ path: String) throws -> BundleMeasurement.Result, bar: Bar, ladder: Ladder
    ) {
        self.encode = encode
        self.measure = measure
        self.bar = bar
        self.ladder = ladder
    }

    /// The excerpt of a loop of `frameCount` frames at `fps`: its middle second (all of a
    /// shorter loop).
    package static func excerpt(frameCount: Int, fps: Double) -> ClosedRange<Int> {
        let length = min(frameCount, max(Int(fps.rounded()), 2))
        let start = (frameCount - length) / 2
        return start...(start + length - 1)
    }

    /// The instants of `excerpt` that are measured: at a third, two thirds and its end,
    /// away from the key frame that starts it.
    package static func measuredFrames(of excerpt: ClosedRange<Int>) -> [Int] {
        let length = excerpt.count
        return Array(Set([length / 3, 2 * length / 3, length - 1].map { excerpt.lowerBound + $0 })).sorted()
    }

    /// Runs the search: the start, then each next rate where the line through the last two
    /// rates' PSNR (the ladder's typical slope while there is one) reaches the bar, kept
    /// strictly between the highest rate that met it and the lowest above that missed,
    /// until those two are a step apart. Quality falls as the rate rises, so the answer is
    /// the same as trying every rate's; where it falls in a line, the third encode is the
    /// answer (the line through the first two is exact), and a fourth at most confirms it.
    ///
    /// - Returns: the chosen rate, and each rate tried with whether it met the bar.
    /// - Throws: what encoding or measuring throws.
    package func run() throws -> (crf: Int, tried: [(crf: Int, met: Bool)]) {
        var points: [(crf: Int, psnr: Double, met: Bool)] = []
        var crf = ladder.start
        while true {
            let path = try encode(crf)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try measure(path)
            points.append((crf, result.psnr, bar.isMet(by: result, margin: RateSearch.margin)))
            let met = points.filter(\.met).map(\.crf).max()
            let missed = points.filter { !$0.met && $0.crf > (met ?? .min) }.map(\.crf).min()
            let low = met.map { $0 + ladder.step } ?? ladder.lowest
            let high = missed.map { $0 - ladder.step } ?? ladder.highest
            guard low <= high else { return (met ?? missed ?? crf, points.map { ($0.crf, $0.met) }) }
            crf = min(max(nextGuess(after: points), low), high)
        }
    }

    /// The rate on the ladder, at or below where the line through the last two `points`
    /// reaches the bar and its margin.
    private func nextGuess(after points: [(crf: Int, psnr: Double, met: Bool)]) -> Int {
        let last = points[points.count - 1]
        var slope = ladder.slope
        if points.count >= 2 {
            let before = points[points.count - 2]
            let measured = (before.psnr - last.psnr) / Double(last.crf - before.crf)
            if measured.isFinite, measured > 0.01 { slope = measured }
        }
        let rates = (last.psnr - bar.psnr - RateSearch.margin) / slope
        let steps = (rates / Double(ladder.step)).rounded(.down)
        return last.crf + ladder.step * Int(max(min(steps, 64), -64))
    }
}
