/// Quantises shaded rows into a pixel format.
struct Packer {
    let format: PixelFormat
    let dither: Bool
    let ditherOffset: (x: Int, y: Int)
    let width: Int
    let height: Int
    /// The Y′CbCr matrix of the 4:2:0 formats.
    let weights: YUV.Weights

    init(
        format: PixelFormat, dither: Bool, ditherOffset: (x: Int, y: Int), width: Int, height: Int,
        matrix: YUVMatrix = .bt709
    ) {
        self.format = format
        weights = matrix.weights
        // Dithering is for 8-bit output; 16 bits have no visible steps to break up.
        self.dither = dither && format.bitDepth == 8
        self.ditherOffset = ditherOffset
        self.width = width
        self.height = height
    }

    @inline(__always)
    func pack(row: Int, shaded: UnsafeMutablePointer<SIMD4<Float>>, into output: UnsafeMutableRawBufferPointer) {
        let base = output.baseAddress!
        Dither.thresholds.withUnsafeBufferPointer { thresholds in
            let tileRow = thresholds.baseAddress! + ((row + ditherOffset.y) & 63) * Dither.tileSize
            switch format {
            case .rgba:
                let out = (base + row * width * 4).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let q = quantize8(shaded[x], tileRow: tileRow, x: x)
                    out[4 * x] = UInt8(truncatingIfNeeded: q.x)
                    out[4 * x + 1] = UInt8(truncatingIfNeeded: q.y)
                    out[4 * x + 2] = UInt8(truncatingIfNeeded: q.z)
                    out[4 * x + 3] = UInt8(truncatingIfNeeded: q.w)
                }
            case .rgb24:
                let out = (base + row * width * 3).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let q = quantize8(shaded[x], tileRow: tileRow, x: x)
                    out[3 * x] = UInt8(truncatingIfNeeded: q.x)
                    out[3 * x + 1] = UInt8(truncatingIfNeeded: q.y)
                    out[3 * x + 2] = UInt8(truncatingIfNeeded: q.z)
                }
            case .rgba64le, .rgb48le:
                let channels = format == .rgba64le ? 4 : 3
                let out = (base + row * width * 2 * channels).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width {
                    let v = (shaded[x] * 65535 + 0.5).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 65535))
                    for lane in 0..<channels {
                        out[channels * x + lane] = UInt16(v[lane]).littleEndian
                    }
                }
            case .yuv420p:
                let out = (base + row * width).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let luma = YUV.luma(shaded[x], weights)
                    let t = dither ? tileRow[(x + ditherOffset.x) & 63].x : 0.5
                    out[x] = UInt8(truncatingIfNeeded: Int32(min(max(luma + t, 0), 255)))
                }
            case .yuv420p10le:
                let out = (base + 2 * row * width).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width { out[x] = YUV.tenBitCode(YUV.luma(shaded[x], weights)).littleEndian }
            }
        }
    }

    /// One row of Cb and Cr from a pair of shaded rows, each sample the mean of a 2×2 block.
    @inline(__always)
    func packChroma(
        pair: Int, rows: (UnsafeMutablePointer<SIMD4<Float>>, UnsafeMutablePointer<SIMD4<Float>>),
        into output: UnsafeMutableRawBufferPointer
    ) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        if format == .yuv420p10le {
            let base = output.baseAddress!.assumingMemoryBound(to: UInt16.self)
            let cb = base + width * height + pair * chromaWidth
            let cr = cb + chromaWidth * chromaHeight
            for cx in 0..<chromaWidth {
                let x0 = 2 * cx, x1 = min(2 * cx + 1, width - 1)
                let (u, v) = YUV.chroma((rows.0[x0] + rows.0[x1] + rows.1[x0] + rows.1[x1]) * 0.25, weights)
                cb[cx] = YUV.tenBitCode(u).littleEndian
                cr[cx] = YUV.tenBitCode(v).littleEndian
            }
            return
        }
        let base = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let cb = base + width * height + pair * chromaWidth
        let cr = base + width * height + chromaWidth * chromaHeight + pair * chromaWidth
        Dither.thresholds.withUnsafeBufferPointer { thresholds in
            let tileRow = thresholds.baseAddress! + ((pair + ditherOffset.y) & 63) * Dither.tileSize
            for cx in 0..<chromaWidth {
                let x0 = 2 * cx, x1 = min(2 * cx + 1, width - 1)
                let mean = (rows.0[x0] + rows.0[x1] + rows.1[x0] + rows.1[x1]) * 0.25
                let (u, v) = YUV.chroma(mean, weights)
                let t = dither ? tileRow[(cx + ditherOffset.x) & 63] : SIMD4(repeating: 0.5)
                cb[cx] = UInt8(truncatingIfNeeded: Int32(min(max(u + t.y, 0), 255)))
                cr[cx] = UInt8(truncatingIfNeeded: Int32(min(max(v + t.z, 0), 255)))
            }
        }
    }

    /// `⌊255·v + t⌋` per channel, clamped to 0...255, with `t` the dither threshold or ½.
    /// (Clamped values are not negative, so truncation is the floor.)
    @inline(__always)
    private func quantize8(_ v: SIMD4<Float>, tileRow: UnsafePointer<SIMD4<Float>>, x: Int) -> SIMD4<Int32> {
        let t = dither ? tileRow[(x + ditherOffset.x) & 63] : SIMD4<Float>(repeating: 0.5)
        let scaled = (v * 255 + t).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
        return SIMD4(Int32(scaled.x), Int32(scaled.y), Int32(scaled.z), Int32(scaled.w))
    }
}
