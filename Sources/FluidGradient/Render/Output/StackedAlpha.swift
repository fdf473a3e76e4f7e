/// The stacked-alpha layout, for codecs without an alpha channel: a frame of W×H with
/// transparency becomes an opaque frame of W×2H whose top half is the colour
/// premultiplied by alpha (the frame over black) and whose bottom half is the alpha as
/// grey (R = G = B = alpha). A player recombines the halves into premultiplied RGBA.
///
/// Both halves go through the same quantiser as rendered frames (``Packer``): 8-bit
/// formats are dithered, 16-bit ones are not, and BT.709 limited-range Y′CbCr is made
/// the same way. Alpha 0 and 1 land exactly on black and white (Y 16 and 235, Cb = Cr =
/// 128 in yuv420p), which no threshold of the dither moves.
package enum StackedAlpha {
    /// The value of the container's global `comment` tag that marks the layout.
    package static let layoutComment = "fluidgradient-layout=stacked-alpha"

    /// Packs one frame into the stacked layout.
    ///
    /// - Parameters:
    ///   - frame: the rendered frame, 16-bit straight RGBA (``PixelFormat/rgba64le``),
    ///     so that the colour is premultiplied before its one quantisation.
    ///   - stacked: the destination, as wide as `frame` and twice as tall, in any
    ///     format; its bytes are overwritten.
    ///   - dither: whether 8-bit formats are dithered (DESIGN section 9).
    ///   - frameIndex: the index that moves the dither pattern.
    ///   - threads: how many threads share the rows; the bytes do not depend on it.
    package static func pack(
        _ frame: PixelBuffer, into stacked: inout PixelBuffer, dither: Bool, frameIndex: Int, threads: Int = 1
    ) {
        precondition(frame.format == .rgba64le, "a stacked frame is made from 16-bit RGBA")
        precondition(
            stacked.width == frame.width && stacked.height == 2 * frame.height,
            "a stacked frame is W×2H of its source")
        let width = frame.width, height = frame.height, isPlanar = stacked.format.bytesPerPixel == nil
        let packer = Packer(
            format: stacked.format, dither: dither, ditherOffset: Dither.offset(frame: frameIndex),
            width: width, height: 2 * height, matrix: stacked.matrix)
        stacked.withUnsafeMutableBytes { bytes in
            let output = SharedBuffer(bytes: bytes)
            frame.withUnsafeBytes { source in
                let samples = SharedBuffer(source.assumingMemoryBound(to: UInt16.self))
                // Row pairs, as yuv420p's chroma takes two rows; an odd H puts one pair
                // across the halves, which blends the chroma of that pair.
                parallelChunks(height, threads: threads, minimumChunk: 8) { pairs in
                    let shaded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * width)
                    defer { shaded.deallocate() }
                    for pair in pairs {
                        for row in [2 * pair, 2 * pair + 1] {
                            let target = shaded + (row % 2) * width
                            shade(row: row, of: samples.buffer, width: width, height: height, into: target)
                            packer.pack(row: row, shaded: target, into: output.bytes)
                        }
                        // Planar formats (4:2:0) take their chroma from each pair.
                        if isPlanar {
                            packer.packChroma(pair: pair, rows: (shaded, shaded + width), into: output.bytes)
                        }
                    }
                }
            }
        }
    }

    /// Row `row` of the stacked frame as opaque colours in 0...1: the premultiplied
    /// colour of source row `row` in the top half, the alpha of row `row − height` as
    /// grey in the bottom half.
    @inline(__always)
    private static func shade(
        row: Int, of samples: UnsafeBufferPointer<UInt16>, width: Int, height: Int,
        into shaded: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let scale: Float = 1 / 65535
        let start = (row < height ? row : row - height) * width * 4
        for x in 0..<width {
            let offset = start + 4 * x
            let alpha = Float(UInt16(littleEndian: samples[offset + 3])) * scale
            if row >= height {
                shaded[x] = SIMD4(alpha, alpha, alpha, 1)
                continue
            }
            let red = Float(UInt16(littleEndian: samples[offset])) * scale
            let green = Float(UInt16(littleEndian: samples[offset + 1])) * scale
            let blue = Float(UInt16(littleEndian: samples[offset + 2])) * scale
            shaded[x] = SIMD4(red * alpha, green * alpha, blue * alpha, 1)
        }
    }
}
