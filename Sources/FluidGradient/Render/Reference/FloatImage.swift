import Foundation

/// A frame as floats: premultiplied, gamma-encoded sRGB RGBA per pixel, row by row.
package struct FloatImage: Sendable {
    package let width: Int
    package let height: Int
    package var pixels: [SIMD4<Double>]

    package init(width: Int, height: Int, pixels: [SIMD4<Double>]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    package subscript(x: Int, y: Int) -> SIMD4<Double> { pixels[y * width + x] }

    /// Pixel `(x, y)` with straight alpha, as it is written to a file.
    package func straight(x: Int, y: Int) -> SIMD4<Double> {
        let p = self[x, y]
        guard p.w > 0 else { return .zero }
        return SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w)
    }
}
