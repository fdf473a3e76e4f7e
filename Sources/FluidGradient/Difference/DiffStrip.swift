import Foundation

/// The "expected | actual | difference" picture of two frames: three panels side by
/// side, the difference as a heat map of each pixel's largest channel difference.
/// Within the tolerance it is black; above it, from dark red at the tolerance to
/// yellow and white at the frame's largest difference, so even one level shows.
package enum DiffStrip {
    package static func render(expected: FrameSamples, actual: FrameSamples, tolerance: Double) -> PixelBuffer {
        let width = expected.width, height = expected.height
        let map = heatMap(expected: expected, actual: actual, tolerance: tolerance)
        var strip = PixelBuffer(width: 3 * width, height: height, format: .rgb24)
        strip.withUnsafeMutableBytes { bytes in
            map.withUnsafeBytes { heat in
                for y in 0..<height {
                    for x in 0..<width {
                        let row = y * 3 * width
                        let a = expected.premultiplied(x: x, y: y), b = actual.premultiplied(x: x, y: y)
                        for lane in 0..<3 {
                            bytes[(row + x) * 3 + lane] = level(a[lane])
                            bytes[(row + width + x) * 3 + lane] = level(b[lane])
                            bytes[(row + 2 * width + x) * 3 + lane] = heat[(y * width + x) * 4 + lane]
                        }
                    }
                }
            }
        }
        return strip
    }

    /// The strip's third panel alone, opaque RGBA.
    ///
    /// - Parameters:
    ///   - expected: one frame.
    ///   - actual: the other, of the same size.
    ///   - tolerance: the largest difference, in 8-bit levels, left black.
    /// - Returns: the heat map, 8-bit RGBA with every alpha 255.
    package static func heatMap(expected: FrameSamples, actual: FrameSamples, tolerance: Double) -> PixelBuffer {
        let width = expected.width, height = expected.height
        var map = PixelBuffer(width: width, height: height, format: .rgba)
        var largest: Float = 0
        for y in 0..<height {
            for x in 0..<width {
                largest = max(
                    largest, absolute(expected.premultiplied(x: x, y: y) - actual.premultiplied(x: x, y: y)).max())
            }
        }
        let floor = Float(tolerance / 255)
        map.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let d = absolute(expected.premultiplied(x: x, y: y) - actual.premultiplied(x: x, y: y)).max()
                    let color =
                        d > floor && largest > floor
                        ? heat(0.25 + 0.75 * (d - floor) / max(largest - floor, 1e-9)) : SIMD4<Float>(0, 0, 0, 1)
                    for lane in 0..<4 { bytes[(y * width + x) * 4 + lane] = level(color[lane]) }
                }
            }
        }
        return map
    }

    /// A value in 0...1 (clamped) as an 8-bit level, rounded.
    private static func level(_ value: Float) -> UInt8 { UInt8(min(max(value, 0), 1) * 255 + 0.5) }

    /// Black → red → yellow → white along `t` in 0...1.
    static func heat(_ t: Float) -> SIMD4<Float> {
        let t = min(max(t, 0), 1)
        return SIMD4(min(t * 3, 1), min(max(t * 3 - 1, 0), 1), min(max(t * 3 - 2, 0), 1), 1)
    }
}

/// Lane-wise |v|.
@inline(__always)
func absolute(_ v: SIMD4<Float>) -> SIMD4<Float> { v.replacing(with: -v, where: v .< 0) }
