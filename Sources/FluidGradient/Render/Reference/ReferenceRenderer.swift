import Foundation

/// The slow, obviously-correct implementation of DESIGN section 1, kept as the
/// oracle for ``FrameRenderer``: every pixel of a canvas larger than the frame is
/// composited at full resolution in `Double`, then blurred by direct separable
/// convolution with a sampled Gaussian that reaches 5σ (the weight beyond is below 10⁻⁶).
package enum ReferenceRenderer {
    /// Renders `scene` by the definition, in `Double`.
    ///
    /// - Parameters:
    ///   - scene: The base and highlight blobs.
    ///   - spec: The frame: its size, σ, edges, background and grain.
    ///   - frameIndex: The frame's index, which picks animated grain's phase.
    ///   - threads: Threads to split the rows over; the values do not depend on it.
    /// - Returns: The frame, premultiplied, before quantisation.
    package static func render(_ scene: Scene, spec: FrameSpec, frameIndex: Int = 0, threads: Int = 1) -> FloatImage {
        let kernel = gaussianKernel(sigma: spec.sigma, radius: Int((5 * spec.sigma).rounded(.up)))
        let canvas = Canvas(spec: spec, reach: kernel.count / 2)
        let composited = composite(scene.resolvingColors(in: spec.colorSpace), on: canvas, spec: spec, threads: threads)
        let vertical = blurVertically(composited, on: canvas, kernel: kernel, height: spec.height, threads: threads)
        var image = blurHorizontally(vertical, on: canvas, kernel: kernel, spec: spec, threads: threads)
        if let grain = spec.grain { layGrain(grain, frameIndex: frameIndex, on: &image) }
        return image
    }

    /// The frame with the blur's reach added on every side.
    private struct Canvas {
        let reach: Int
        let width: Int
        let height: Int

        init(spec: FrameSpec, reach: Int) {
            self.reach = reach
            width = spec.width + 2 * reach
            height = spec.height + 2 * reach
        }
    }

    /// Steps 2–3: the scene composited at every pixel centre of the canvas, as the edge
    /// mode extends the frame.
    private static func composite(
        _ scene: Scene, on canvas: Canvas, spec: FrameSpec, threads: Int
    ) -> [SIMD4<Double>] {
        let width = spec.width, height = spec.height, reach = canvas.reach
        let frame = (width: Double(width), height: Double(height))
        var values = [SIMD4<Double>](repeating: .zero, count: canvas.width * canvas.height)
        values.withUnsafeMutableBufferPointer { values in
            let values = SharedBuffer(values)
            parallelChunks(canvas.height, threads: threads) { rows in
                for row in rows {
                    for column in 0..<canvas.width {
                        var i = column - reach, j = row - reach
                        switch spec.edges {
                        case .bleed:
                            break
                        case .clamp:
                            i = min(max(i, 0), width - 1)
                            j = min(max(j, 0), height - 1)
                        case .transparent:
                            if i < 0 || j < 0 || i >= width || j >= height { continue }
                        }
                        values[row * canvas.width + column] = value(
                            of: scene, x: Double(i) + 0.5, y: Double(j) + 0.5, width: frame.width,
                            height: frame.height, mixing: spec.mixing)
                    }
                }
            }
        }
        return values
    }

    /// Step 4, first pass: the canvas blurred vertically, at the frame's rows only.
    private static func blurVertically(
        _ canvasValues: [SIMD4<Double>], on canvas: Canvas, kernel: [Double], height: Int, threads: Int
    ) -> [SIMD4<Double>] {
        var vertical = [SIMD4<Double>](repeating: .zero, count: canvas.width * height)
        vertical.withUnsafeMutableBufferPointer { vertical in
            let vertical = SharedBuffer(vertical)
            parallelChunks(height, threads: threads) { rows in
                for j in rows {
                    for column in 0..<canvas.width {
                        var sum = SIMD4<Double>.zero
                        for (tap, weight) in kernel.enumerated() {
                            sum += weight * canvasValues[(j + tap) * canvas.width + column]
                        }
                        vertical[j * canvas.width + column] = sum
                    }
                }
            }
        }
        return vertical
    }

    /// Step 4, second pass, at the frame's columns only, then step 5: source-over onto
    /// the (unblurred) background.
    private static func blurHorizontally(
        _ vertical: [SIMD4<Double>], on canvas: Canvas, kernel: [Double], spec: FrameSpec, threads: Int
    ) -> FloatImage {
        let width = spec.width, height = spec.height
        var pixels = [SIMD4<Double>](repeating: .zero, count: width * height)
        pixels.withUnsafeMutableBufferPointer { pixels in
            let pixels = SharedBuffer(pixels)
            parallelChunks(height, threads: threads) { rows in
                for j in rows {
                    for i in 0..<width {
                        var sum = SIMD4<Double>.zero
                        for (tap, weight) in kernel.enumerated() {
                            sum += weight * vertical[j * canvas.width + i + tap]
                        }
                        let background = spec.background.color(
                            x: Double(i) + 0.5, y: Double(j) + 0.5,
                            width: Double(width), height: Double(height), in: spec.colorSpace)
                        let mixed = sum + spec.mixing.premultipliedInto(background) * (1 - sum.w)
                        pixels[j * width + i] = spec.mixing.premultipliedOutOf(mixed)
                    }
                }
            }
        }
        return FloatImage(width: width, height: height, pixels: pixels)
    }

    /// The premultiplied value of `scene` at pixel-space point `(x, y)` of a
    /// `width × height` frame, in `mixing`'s space: the base blobs composited
    /// source-over in order onto transparency, the highlight blobs likewise onto a layer
    /// of their own, and that layer overlaid onto the base layer (DESIGN section 1,
    /// steps 2 and 3; the overlay's blend on encoded values, section 13).
    package static func value(
        of scene: Scene, x: Double, y: Double, width: Double, height: Double,
        mixing: Mixing = Mixing(.srgb, frame: .srgb)
    ) -> SIMD4<Double> {
        func layer(_ blobs: [Blob]) -> SIMD4<Double> {
            blobs.reduce(.zero) { below, blob in
                let coverage = blob.coverage(x: x, y: y, width: width, height: height)
                let source = mixing.premultipliedInto(blob.premultipliedColor) * coverage
                return BlendMode.normal.composite(source: source, backdrop: below)
            }
        }
        return mixing.blendMode(.overlay).composite(source: layer(scene.highlights), backdrop: layer(scene.base))
    }

    /// `exp(−m² / 2σ²)` for `m` in `−radius...radius`, normalised to sum to 1.
    package static func gaussianKernel(sigma: Double, radius: Int) -> [Double] {
        let weights = (-radius...radius).map { m in
            let x = Double(m)
            return exp(-x * x / (2 * sigma * sigma))
        }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }
}
