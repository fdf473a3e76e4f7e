import Foundation

/// How much a frame bands: false contours, steps between wide plateaus in smooth regions,
/// measured as Netflix's CAMBI (Contrast Aware Multiscale Banding Index, PCS 2021) does.
///
/// The frame's BT.709 luma at 10-bit codes (``LumaPlane``) is masked to its smooth pixels
/// (most of the 7×7 around each equal their neighbours, so noise and dither, which hide a
/// contour, are left out), then at five scales (each half the last) mode-filtered and
/// given each smooth pixel's contrast with a neighbouring plateau (``BandingContrast``)
/// within a window of about a degree of view (63 pixels at 3840 wide, in proportion).
/// A step counts only where it is visible: where its luminance change, on a BT.1886
/// display (300 nits white, 0.01 black), exceeds 1.9% of the luminance. Each scale's mean
/// over its largest 60% of values is weighted 16, 8, 4, 2, 1 from the finest, and divided
/// by the window's pixels. 0 is no banding; CAMBI puts "slightly annoying" near 5.
///
/// A 10-bit rounding of a smooth dark gradient has one-code steps that count here too, so
/// a decoded file is judged against its reference: ``BandingDifference``.
package enum BandingIndex {
    /// The index of `frame`, measured on its colours over black, as shown on a screen of
    /// at least 1080p's pixels: a smaller frame is first scaled up bilinearly by the whole
    /// factor that brings it nearest (3 for 640x360), as a player scales a small encode.
    /// CAMBI's mask and window were made for such sizes; at 640x360 itself its smooth mask
    /// takes in nearly every pixel, and an 8-bit dithered gradient read as banded.
    ///
    /// - Parameter frame: any frame.
    /// - Returns: the index, 0 or more.
    package static func of(_ frame: FrameSamples) -> Double {
        let factor = Int((Double(1920 * 1080) / Double(frame.width * frame.height)).squareRoot())
        let shown =
            factor >= 2 ? frame.upscaledBilinear(width: factor * frame.width, height: factor * frame.height) : frame
        return of(LumaPlane(shown))
    }

    /// The index of a plane of luma codes at its own size.
    ///
    /// - Parameter plane: the codes, as ``LumaPlane/init(_:)`` makes them.
    /// - Returns: the index, 0 or more.
    package static func of(_ plane: LumaPlane) -> Double {
        var plane = plane
        let window = windowSide(width: plane.width)
        var mask = plane.smoothMask(threshold: smoothThreshold(width: plane.width, height: plane.height))
        var total = 0.0
        for (scale, weight) in [16.0, 8, 4, 2, 1].enumerated() {
            if scale > 0 {
                mask = mask.decimated(width: plane.width, height: plane.height)
                plane = plane.decimated()
            }
            var values = BandingContrast.values(
                of: plane.modeFiltered(), mask: mask, radius: window / 2, visibleUpTo: visibleUpTo)
            total += weight * meanOfLargest(&values, share: 0.6)
        }
        let side = Double(window / 2 * 2 + 1)
        return total / (side * side)
    }

    /// The window's side at `width` pixels: 63 at 3840, in proportion, 3 to 127.
    static func windowSide(width: Int) -> Int { min(max(63 * width / 3840, 3), 127) }

    /// How many of a pixel's 7×7 must be flat for it to count as smooth: 24 of 49 at 4K, fewer
    /// at smaller sizes, where a gradient moves faster per pixel (never below 0).
    static func smoothThreshold(width: Int, height: Int) -> Int {
        let ratio = (Double((3840 * 2160) / max(width * height, 1))).squareRoot()
        return max(Int(24 - 3 * (ratio - 1)), 0)
    }

    /// For each step of 1 to 4 codes, the highest code at which it is visible.
    package static let visibleUpTo: [Int] = BandingContrast.steps.map { step in
        (64..<(940 - step)).last { code in
            let here = luminance(code), above = luminance(code + step)
            return above - here > 0.019 * here
        } ?? 0
    }

    /// BT.1886's luminance in nits of a 10-bit limited-range code, white 300 and black 0.01.
    package static func luminance(_ code: Int) -> Double {
        let white = pow(300.0, 1 / 2.4), black = pow(0.01, 1 / 2.4)
        let gain = pow(white - black, 2.4), lift = black / (white - black)
        let signal = Double(min(max(code, 64), 940) - 64) / 876
        return gain * pow(max(signal + lift, 0), 2.4)
    }

    /// The mean of the largest `share` of `values` (at least one value); `values` is reordered.
    package static func meanOfLargest(_ values: inout [Float], share: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let count = min(max(Int(share * Double(values.count)), 1), values.count)
        let positive = values.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        guard positive > count else { return values.reduce(0.0) { $0 + Double($1) } / Double(count) }
        values.withUnsafeMutableBufferPointer { selectLargest(count, in: $0) }
        return values[0..<count].reduce(0.0) { $0 + Double($1) } / Double(count)
    }

    /// Reorders `values` so that its first `count` are its largest (Wirth's selection).
    private static func selectLargest(_ count: Int, in values: UnsafeMutableBufferPointer<Float>) {
        guard count < values.count else { return }
        var low = 0, high = values.count - 1
        while low < high {
            let pivot = values[count]
            var left = low, right = high
            repeat {
                while values[left] > pivot { left += 1 }
                while values[right] < pivot { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            } while left <= right
            if right < count { low = left }
            if count < left { high = right }
        }
    }
}
