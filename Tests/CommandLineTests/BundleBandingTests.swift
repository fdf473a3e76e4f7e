import FluidGradient
import FluidGradientIO
import Foundation
import Testing

/// The banding a bundle's manifest records for each file is measured as `compare --banding`
/// measures it: the banded control (the engine's 8-bit frame without dither) is flagged, the
/// dithered frame is not. A bundle's own files stay under the threshold (BundleCommandTests).
@Suite(.serialized) struct BundleBandingTests {
    @Test func theBundlesMeasureFlagsTheBandedControlAndPassesTheDitheredFrame() throws {
        let scratch = Scratch()
        let (_, plain, dithered) = BandingCompareTests.frames("dusk", in: scratch)
        var preset = try Preset(builtIn: "dusk")
        preset.width = 1920
        preset.height = 1080
        let instant = Int((4 * preset.fps).rounded())
        let measurement = BundleMeasurement(preset: preset, frames: [instant], threads: 2, banding: true)
        let control = try measurement.measure(plain, isLoop: false, includeAlpha: false)
        // compare --banding measures 2.90 for the same pair.
        #expect(try #require(control.banding) > 2 && control.banding! > BandingDifference.threshold, "\(control)")
        let good = try measurement.measure(dithered, isLoop: false, includeAlpha: false)
        #expect(try #require(good.banding) < 0.5, "\(good)")
    }
}
