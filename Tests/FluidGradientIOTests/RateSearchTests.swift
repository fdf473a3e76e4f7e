import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// The per-title rate search on a quality that falls as the rate rises, as every
/// encoder's does: it must find the highest rate on the ladder that meets the bar with
/// the margin, from either side of its start, and stay within the ladder's bounds.
@Suite struct RateSearchTests {
    /// A search whose excerpt at rate `crf` measures `quality(crf)` dB and `largest(crf)` levels.
    private static func search(
        ladder: RateSearch.Ladder, bar: RateSearch.Bar = .init(psnr: 50, largest: 8),
        quality: @escaping @Sendable (Int) -> Double, largest: @escaping @Sendable (Int) -> Double = { _ in 4 }
    ) throws -> (crf: Int, tried: [(crf: Int, met: Bool)]) {
        try RateSearch(
            encode: { crf in "/nonexistent/excerpt-\(crf)" },
            measure: { path in
                let crf = Int(path.split(separator: "-").last!)!
                return BundleMeasurement.Result(psnr: quality(crf), largest: largest(crf))
            }, bar: bar, ladder: ladder
        ).run()
    }

    static let ladder = RateSearch.Ladder(start: 35, lowest: 23, highest: 47, step: 2, slope: 0.25)

    @Test func aLoopWithRoomGoesUpUntilTheBarAndNoFurther() throws {
        // 0.25 dB a step of 1 from 54 dB at 31: 50.4 (the bar and its margin) is met up to 45.
        let result = try Self.search(ladder: Self.ladder, quality: { 54 - 0.25 * Double($0 - 31) })
        #expect(result.crf == 45)
        // 53 dB at 35: 2.6 dB over the bar and margin, 10.4 rates at 0.25 dB, a guess of 45, then a step up.
        #expect(result.tried.map(\.crf) == [35, 45, 47])
        #expect(result.tried.last!.met == false)
    }

    @Test func aLoopThatMissesAtTheStartGoesDown() throws {
        let result = try Self.search(ladder: Self.ladder, quality: { 52 - 0.25 * Double($0 - 23) })
        // 50.4 needs crf <= 29.4: 29 is the first met, coming down from 35.
        #expect(result.crf == 29)
        // 49 dB at 35: the guess is 1.4 dB under, 5.6 rates, so 35 - 2·3 = 29, met at once, and 31 is not.
        #expect(result.tried.map(\.crf) == [35, 29, 31])
    }

    @Test func theLargestErrorCountsAsThePSNRDoes() throws {
        // PSNR is met everywhere; the largest error is over 8 - 0.8 above rate 40.
        let result = try Self.search(
            ladder: Self.ladder, quality: { _ in 60 }, largest: { $0 > 40 ? 7.5 : 6 })
        #expect(result.crf == 39)
    }

    @Test func theBoundsHold() throws {
        #expect(try Self.search(ladder: Self.ladder, quality: { _ in 70 }).crf == 47)
        #expect(try Self.search(ladder: Self.ladder, quality: { _ in 30 }).crf == 23)
    }

    /// A random ladder's step (1 to 3), bounds (2 to `upTo` + 1 steps apart, from 0 to 19)
    /// and a start on one of its rungs.
    private static func rungs(
        _ generator: inout SplitMix64, upTo extra: UInt64
    ) -> (step: Int, lowest: Int, highest: Int, start: Int) {
        let step = 1 + Int(generator.next() % 3), lowest = Int(generator.next() % 20)
        let highest = lowest + step * (2 + Int(generator.next() % extra))
        let start = lowest + step * Int(generator.next() % UInt64((highest - lowest) / step + 1))
        return (step, lowest, highest, start)
    }

    /// Seeded random ladders and slopes against the answer found by trying every rate.
    @Test func randomLaddersFindTheHighestRateThatMeetsTheBar() throws {
        var generator = SplitMix64(seed: 33)
        for _ in 0..<200 {
            let (step, lowest, highest, start) = Self.rungs(&generator, upTo: 10)
            let top = generator.next(in: 45...65), slope = generator.next(in: 0.05...1)
            let guessSlope = generator.next(in: 0.05...1)
            let quality: @Sendable (Int) -> Double = { top - slope * Double($0) }
            let ladder = RateSearch.Ladder(
                start: start, lowest: lowest, highest: highest, step: step, slope: guessSlope)
            let meets = stride(from: lowest, through: highest, by: step).filter {
                quality($0) >= 50 + RateSearch.margin
            }
            let result = try Self.search(ladder: ladder, quality: quality)
            #expect(result.crf == (meets.max() ?? lowest), "\(ladder), \(top) - \(slope)·crf")
            // The line through two measured rates is the quality itself: its guess is the
            // answer, and one more encode confirms it (stepping from the guess took 5 to 8 in 16 of these).
            #expect(result.tried.count <= 4, "\(ladder), \(top) - \(slope)·crf: \(result.tried.map(\.crf))")
        }
    }

    /// Real encoders are noisy: a rate a step up can measure better. On seeded noisy ladders
    /// the search still ends, never encodes a rate twice, stays on the ladder, and answers a
    /// rate that met the bar whose next rung up missed it (or a bound).
    @Test func noisyLaddersEndOnAMetRateWhoseNextRungMissed() throws {
        var generator = SplitMix64(seed: 3301)
        for _ in 0..<200 {
            let (step, lowest, highest, start) = Self.rungs(&generator, upTo: 12)
            let top = generator.next(in: 48...62), slope = generator.next(in: 0.05...1)
            let noise = (0...highest).map { _ in generator.next(in: -0.8...0.8) }
            let quality: @Sendable (Int) -> Double = { top - slope * Double($0) + noise[$0] }
            let ladder = RateSearch.Ladder(
                start: start, lowest: lowest, highest: highest, step: step, slope: generator.next(in: 0.05...1))
            let result = try Self.search(ladder: ladder, quality: quality)
            let tried = result.tried.map(\.crf), label = "\(ladder): \(tried)"
            #expect(Set(tried).count == tried.count, "\(label)")
            #expect(tried.allSatisfy { $0 >= lowest && $0 <= highest && ($0 - lowest) % step == 0 }, "\(label)")
            let met = Set(result.tried.filter(\.met).map(\.crf))
            if met.isEmpty {
                #expect(result.crf == lowest && tried.contains(lowest), "\(label)")
            } else {
                #expect(met.contains(result.crf), "\(label)")
                let above = result.crf + step
                #expect(above > highest || result.tried.contains { $0.crf == above && !$0.met }, "\(label)")
            }
        }
    }

    @Test func theExcerptIsTheMiddleSecondMeasuredAwayFromItsKeyFrame() {
        #expect(RateSearch.excerpt(frameCount: 600, fps: 60) == 270...329)
        #expect(RateSearch.measuredFrames(of: 270...329) == [290, 310, 329])
        #expect(RateSearch.excerpt(frameCount: 10, fps: 30) == 0...9)
    }
}
