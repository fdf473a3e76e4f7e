/// Decoded 10-bit limited-range 4:2:0 frames (`yuv420p10le`) back to RGB, exactly, in their matrix.
///
/// ffmpeg's swscale converts 10-bit Y′CbCr about half a level dark in RGB (its encoder
/// is 1.75 luma codes high, and its decoder mirrors it), which took 1 to 2 dB off every
/// 10-bit file's measured PSNR: the frame we encode converts within half a code
/// (``PixelFormat/yuv420p10le``), so the decode is what has to be exact. Chroma is
/// upsampled bilinearly from centre-sited samples, as players do and as our encoder
/// sites it (each sample the mean of its 2×2 block).
extension FrameSamples {
    /// The RGB frame that `planes`, a `width` × `height` yuv420p10le frame, holds.
    ///
    /// - Parameters:
    ///   - planes: Y, then Cb, then Cr at half width and height rounded up, as 10-bit codes.
    ///   - width: the frame's width.
    ///   - height: the frame's height.
    ///   - matrix: the file's Y′CbCr matrix.
    package init(yuv420p10 planes: [UInt16], width: Int, height: Int, matrix: YUVMatrix = .bt709) {
        let inverse = matrix.inverse
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        precondition(planes.count == width * height + 2 * chromaWidth * chromaHeight, "not a yuv420p frame")
        let cbStart = width * height, crStart = cbStart + chromaWidth * chromaHeight
        let columns = ChromaTaps(length: width, chromaLength: chromaWidth)
        let rows = ChromaTaps(length: height, chromaLength: chromaHeight)
        var values = [Float](repeating: 1, count: 4 * width * height)
        func chroma(_ start: Int, _ row: (Int, Int, Float), _ column: (Int, Int, Float)) -> Float {
            func code(_ y: Int, _ x: Int) -> Float { Float(planes[start + y * chromaWidth + x]) }
            let upper = code(row.0, column.0) + (code(row.0, column.1) - code(row.0, column.0)) * column.2
            let lower = code(row.1, column.0) + (code(row.1, column.1) - code(row.1, column.0)) * column.2
            return (upper + (lower - upper) * row.2 - 512) / 896
        }
        for y in 0..<height {
            let row = rows[y]
            for x in 0..<width {
                let column = columns[x]
                let luma = (Float(planes[y * width + x]) - 64) / 876
                let cb = chroma(cbStart, row, column), cr = chroma(crStart, row, column)
                let rgb = SIMD3<Float>(
                    luma + inverse.r * cr, luma - inverse.g.cb * cb - inverse.g.cr * cr, luma + inverse.b * cb)
                let clamped = rgb.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                let offset = 4 * (y * width + x)
                values[offset] = clamped.x
                values[offset + 1] = clamped.y
                values[offset + 2] = clamped.z
            }
        }
        self.init(width: width, height: height, values: values)
    }
}

/// For each pixel along one axis, the two centre-sited chroma samples around it and the
/// weight of the second: pixel `i`'s centre lies at `(i + 0.5)/2 − 0.5` in chroma samples.
private struct ChromaTaps {
    private let taps: [(Int, Int, Float)]

    init(length: Int, chromaLength: Int) {
        taps = (0..<length).map { index in
            let position = (Float(index) + 0.5) / 2 - 0.5
            let below = position.rounded(.down)
            let clamp = { (i: Int) in min(max(i, 0), chromaLength - 1) }
            return (clamp(Int(below)), clamp(Int(below) + 1), position - below)
        }
    }

    subscript(index: Int) -> (Int, Int, Float) { taps[index] }
}
