extension ReferenceRenderer {
    /// Step 6 of DESIGN section 1, by section 12's words, pixel by pixel in `Double`: each
    /// pixel's cell and draws computed here from the seed (not from ``GrainField``'s tiles),
    /// the grey layer's 8-bit value, and the overlay on the unpremultiplied colour, alpha
    /// unchanged.
    ///
    /// - Parameters:
    ///   - field: The grain.
    ///   - frameIndex: The frame, which picks animated grain's phase.
    ///   - image: The frame after the background, premultiplied; the grain is laid on it.
    static func layGrain(_ field: GrainField, frameIndex: Int, on image: inout FloatImage) {
        let phase = field.animated ? ((frameIndex % 8) + 8) % 8 : 0
        func cell(_ index: Int) -> UInt64 { UInt64(Int((Double(index) / field.cellSize).rounded(.down)) % 256) }
        for j in 0..<image.height {
            for i in 0..<image.width {
                var generator = SplitMix64(seed: field.seed, stream: 3, UInt64(phase), cell(j), cell(i))
                var draws = [generator.nextUnit()]
                draws += field.mono ? [draws[0], draws[0]] : [generator.nextUnit(), generator.nextUnit()]
                let p = image.pixels[j * image.width + i]
                guard p.w > 0 else { continue }
                var out = p
                for lane in 0..<3 {
                    let n = (255 * (0.5 + field.amount * (draws[lane] - 0.5))).rounded() / 255
                    let c = p[lane] / p.w
                    out[lane] = p.w * (c <= 0.5 ? 2 * n * c : 1 - 2 * (1 - n) * (1 - c))
                }
                image.pixels[j * image.width + i] = out
            }
        }
    }
}
