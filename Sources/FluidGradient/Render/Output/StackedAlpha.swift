/// The stacked-alpha layout, for codecs without an alpha channel: a frame of W×H with
/// transparency becomes an opaque frame of W×2P whose first H rows are the colour
/// premultiplied by alpha (the frame over black) and whose last H rows are the alpha as
/// grey (R = G = B = alpha). A player recombines them into premultiplied RGBA.
///
/// Each half is padded to P = ``paddedHeight(_:)`` rows, a multiple of the codecs' largest
/// block (64: H.264's macroblocks, HEVC's coding tree units and AV1's superblocks all divide
/// it) with at least ``seamMargin`` rows of padding, so that no block and no loop filter
/// reaches across the seam from one half's content into the other's. The padding repeats
/// the colour's last row below it and the alpha's first row above it. The tag
/// (``layoutComment(height:)``) gives H; a file without it is unpadded (P = H).
///
/// Both halves go through the same quantiser as rendered frames (``Packer``): 8-bit
/// formats are dithered, 16-bit ones are not, and BT.709 limited-range Y′CbCr is made
/// the same way. Alpha 0 and 1 land exactly on black and white (Y 16 and 235, Cb = Cr =
/// 128 in yuv420p), which no threshold of the dither moves.
package enum StackedAlpha {
    /// The value of the container's global `comment` tag that marks the layout, before
    /// its `;height=H`.
    package static let layoutComment = "fluidgradient-layout=stacked-alpha"

    /// The rows every half is a multiple of, and the fewest rows of padding at the seam:
    /// AV1's deblocking filter, the widest, changes 6 rows on each side of an edge.
    package static let blockRows = 64, seamMargin = 8

    /// The rows of each padded half of a frame `height` rows high.
    package static func paddedHeight(_ height: Int) -> Int {
        (height + seamMargin + blockRows - 1) / blockRows * blockRows
    }

    /// The tag of a stacked file whose halves hold `height` rows.
    package static func layoutComment(height: Int) -> String { layoutComment + ";height=\(height)" }

    /// The rows of content each half holds, for a file `storedHeight` rows high whose
    /// `comment` tag is `comment`: the tag's height, or half the file's for a tag without one;
    /// nil when the tag does not mark the layout or its height does not fit the file.
    package static func contentHeight(comment: String?, storedHeight: Int) -> Int? {
        guard let comment, comment.hasPrefix(layoutComment) else { return nil }
        let rest = comment.dropFirst(layoutComment.count)
        if rest.isEmpty { return storedHeight % 2 == 0 ? storedHeight / 2 : nil }
        guard rest.hasPrefix(";height="), let height = Int(rest.dropFirst(";height=".count)), height > 0,
            2 * height <= storedHeight
        else { return nil }
        return height
    }

    /// Packs one frame into the stacked layout.
    ///
    /// - Parameters:
    ///   - frame: the rendered frame, 16-bit straight RGBA (``PixelFormat/rgba64le``),
    ///     so that the colour is premultiplied before its one quantisation.
    ///   - stacked: the destination, as wide as `frame` and twice ``paddedHeight(_:)`` (or
    ///     twice the frame's height, unpadded), in any format; its bytes are overwritten.
    ///   - dither: whether 8-bit formats are dithered (DESIGN section 9).
    ///   - frameIndex: the index that moves the dither pattern.
    ///   - threads: how many threads share the rows; the bytes do not depend on it.
    package static func pack(
        _ frame: PixelBuffer, into stacked: inout PixelBuffer, dither: Bool, frameIndex: Int, threads: Int = 1
    ) {
        precondition(frame.format == .rgba64le, "a stacked frame is made from 16-bit RGBA")
        precondition(
            stacked.width == frame.width && stacked.height % 2 == 0 && stacked.height >= 2 * frame.height,
            "a stacked frame is W×2P of its source, P ≥ H")
        let width = frame.width, height = frame.height, isPlanar = stacked.format.bytesPerPixel == nil
        let half = stacked.height / 2
        let packer = Packer(
            format: stacked.format, dither: dither, ditherOffset: Dither.offset(frame: frameIndex),
            width: width, height: 2 * half, matrix: stacked.matrix)
        stacked.withUnsafeMutableBytes { bytes in
            let output = SharedBuffer(bytes: bytes)
            frame.withUnsafeBytes { source in
                let samples = SharedBuffer(source.assumingMemoryBound(to: UInt16.self))
                // Row pairs, as yuv420p's chroma takes two rows.
                parallelChunks(half, threads: threads, minimumChunk: 8) { pairs in
                    let shaded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * width)
                    defer { shaded.deallocate() }
                    for pair in pairs {
                        for row in [2 * pair, 2 * pair + 1] {
                            let target = shaded + (row % 2) * width
                            let source = row < half ? min(row, height - 1) : max(0, row - (2 * half - height))
                            shade(
                                row: source, isAlpha: row >= half, of: samples.buffer, width: width, into: target)
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

    /// Source row `row` as opaque colours in 0...1: its premultiplied colour, or with
    /// `isAlpha` its alpha as grey.
    @inline(__always)
    private static func shade(
        row: Int, isAlpha: Bool, of samples: UnsafeBufferPointer<UInt16>, width: Int,
        into shaded: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let scale: Float = 1 / 65535
        let start = row * width * 4
        for x in 0..<width {
            let offset = start + 4 * x
            let alpha = Float(UInt16(littleEndian: samples[offset + 3])) * scale
            if isAlpha {
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
