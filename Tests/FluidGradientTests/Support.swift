import FluidGradient

/// A random scene of `count` base blobs and `highlights` highlight blobs, drawn as in
/// DESIGN section 3 from fixed colour lists.
func randomScene(seed: UInt64, count: Int = 6, highlights: Int = 2, width: Int, height: Int) -> Scene {
    let palette = ["#0F766E", "#14B8A6", "#6D28D9", "#1D4ED8", "#22D3EE", "#F97316", "#FDE047", "#BE185D"]
    let highlightPalette = ["#A7F3D0", "#F0ABFC", "#FFFFFF", "#FEF08A"]
    var generator = SplitMix64(seed: seed)
    func blob(_ hex: String) -> Blob {
        let placement = BlobPlacement.random(&generator, ranges: BlobRanges(), aspectRatio: Double(width) / Double(height))
        return Blob(color: try! RGBA(parsing: hex), center: placement.center, radius: placement.radius, opacity: placement.opacity)
    }
    return Scene(
        base: (0..<count).map { blob(palette[$0 % palette.count]) },
        highlights: (0..<highlights).map { blob(highlightPalette[$0 % highlightPalette.count]) })
}

/// Largest and mean absolute difference, in 8-bit levels, between a rendered 16-bit
/// frame and the reference, over every channel of every pixel.
func errorAgainstReference(_ buffer: PixelBuffer, _ reference: FloatImage) -> (max: Double, mean: Double, worst: (x: Int, y: Int)) {
    var largest = 0.0, total = 0.0, worst = (x: 0, y: 0)
    let channels = buffer.format.hasAlpha ? 4 : 3
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            let actual = buffer.channels(x: x, y: y)
            let expected = buffer.format.hasAlpha ? reference.straight(x: x, y: y) : reference[x, y]
            for lane in 0..<channels {
                let difference = abs(Double(actual[lane]) / 65535 - expected[lane]) * 255
                total += difference
                if difference > largest {
                    largest = difference
                    worst = (x, y)
                }
            }
        }
    }
    return (largest, total / Double(buffer.width * buffer.height * channels), worst)
}
