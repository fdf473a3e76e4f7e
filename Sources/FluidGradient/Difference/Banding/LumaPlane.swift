/// One frame's luma as 10-bit limited-range codes (64 black, 940 white), the plane the
/// banding index reads, with the operations it applies: the mask of smooth pixels, a 3×3
/// mode filter and decimation by two.
package struct LumaPlane {
    package var width: Int
    package var height: Int
    /// `width · height` codes, row by row.
    package var codes: [UInt16]

    /// The BT.709 luma of `frame`'s colours over black (premultiplied), each the mean of
    /// the 2×2 pixels from it rightwards and down (the last column and row take what they
    /// have), rounded to 10-bit codes. The mean is CAMBI's answer to dither: an 8-bit
    /// dithered gradient averages to the finer codes it stands for, where its pixels alone
    /// would be plateaus a level apart; a smooth frame is unchanged by it.
    package init(_ frame: FrameSamples) {
        let width = frame.width, height = frame.height
        var luma = [Float](repeating: 0, count: width * height)
        frame.values.withUnsafeBufferPointer { values in
            for pixel in 0..<luma.count {
                let offset = 4 * pixel
                luma[pixel] =
                    (0.2126 * values[offset] + 0.7152 * values[offset + 1] + 0.0722 * values[offset + 2])
                    * values[offset + 3]
            }
        }
        var codes = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            let below = y + 1 < height ? width : 0
            for x in 0..<width {
                let here = y * width + x, right = x + 1 < width ? 1 : 0
                let mean = (luma[here] + luma[here + right] + luma[here + below] + luma[here + below + right]) / 4
                codes[here] = UInt16(Swift.min(Swift.max((64 + 876 * mean).rounded(), 0), 1023))
            }
        }
        self.init(width: width, height: height, codes: codes)
    }

    package init(width: Int, height: Int, codes: [UInt16]) {
        precondition(codes.count == width * height)
        self.width = width
        self.height = height
        self.codes = codes
    }

    /// Whether each pixel lies in a smooth region: more than `threshold` of the 7×7 pixels
    /// around it equal their right and lower neighbours (a pixel on the last column or row
    /// counts its missing neighbour as equal; pixels past the edge count as not smooth).
    package func smoothMask(threshold: Int) -> [Bool] {
        var flat = [Int32](repeating: 0, count: (width + 1) * (height + 1))
        // flat holds the summed-area table of the zero-derivative map, one row and column of zeros first.
        codes.withUnsafeBufferPointer { codes in
            for y in 0..<height {
                var rowSum: Int32 = 0
                for x in 0..<width {
                    let here = codes[y * width + x]
                    let down = y == height - 1 || codes[(y + 1) * width + x] == here
                    let right = x == width - 1 || codes[y * width + x + 1] == here
                    rowSum += down && right ? 1 : 0
                    flat[(y + 1) * (width + 1) + x + 1] = flat[y * (width + 1) + x + 1] + rowSum
                }
            }
        }
        var mask = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            let top = Swift.max(y - 3, 0), bottom = Swift.min(y + 4, height)
            for x in 0..<width {
                let left = Swift.max(x - 3, 0), right = Swift.min(x + 4, width)
                let sum =
                    flat[bottom * (width + 1) + right] - flat[top * (width + 1) + right]
                    - flat[bottom * (width + 1) + left] + flat[top * (width + 1) + left]
                mask[y * width + x] = Int(sum) > threshold
            }
        }
        return mask
    }

    /// Each code replaced by the most common of the 3×3 codes around it (edges repeated),
    /// the smaller on a tie: it removes isolated codes (noise) and keeps contours.
    package func modeFiltered() -> LumaPlane {
        var filtered = codes
        let window = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: 9)
        defer { window.deallocate() }
        codes.withUnsafeBufferPointer { codes in
            filtered.withUnsafeMutableBufferPointer { filtered in
                for y in 0..<height {
                    let above = Swift.max(y - 1, 0) * width, row = y * width
                    let below = Swift.min(y + 1, height - 1) * width
                    for x in 0..<width {
                        let left = Swift.max(x - 1, 0), right = Swift.min(x + 1, width - 1)
                        window[0] = codes[above + left]
                        window[1] = codes[above + x]
                        window[2] = codes[above + right]
                        window[3] = codes[row + left]
                        window[4] = codes[row + x]
                        window[5] = codes[row + right]
                        window[6] = codes[below + left]
                        window[7] = codes[below + x]
                        window[8] = codes[below + right]
                        filtered[row + x] = LumaPlane.mode(of: window)
                    }
                }
            }
        }
        return LumaPlane(width: width, height: height, codes: filtered)
    }

    /// The most common of nine codes, the smaller on a tie (the centre, the fifth, when
    /// five or more share it, as in every smooth region).
    private static func mode(of window: UnsafeMutableBufferPointer<UInt16>) -> UInt16 {
        let centre = window[4]
        var same = 0
        for index in 0..<9 where window[index] == centre { same += 1 }
        if same >= 5 { return centre }
        for index in 1..<9 {
            let value = window[index]
            var slot = index
            while slot > 0, window[slot - 1] > value {
                window[slot] = window[slot - 1]
                slot -= 1
            }
            window[slot] = value
        }
        var best = window[0], bestCount = 1, run = 1
        for index in 1..<9 {
            run = window[index] == window[index - 1] ? run + 1 : 1
            if run > bestCount {
                best = window[index]
                bestCount = run
            }
        }
        return best
    }

    /// Every second code in each direction, from the first: half the size, rounded up.
    package func decimated() -> LumaPlane {
        let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
        var half = [UInt16](repeating: 0, count: halfWidth * halfHeight)
        for y in 0..<halfHeight {
            for x in 0..<halfWidth { half[y * halfWidth + x] = codes[2 * y * width + 2 * x] }
        }
        return LumaPlane(width: halfWidth, height: halfHeight, codes: half)
    }
}

extension Array where Element == Bool {
    /// A `width` × `height` mask decimated as ``LumaPlane/decimated()`` decimates codes.
    func decimated(width: Int, height: Int) -> [Bool] {
        let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
        var half = [Bool](repeating: false, count: halfWidth * halfHeight)
        for y in 0..<halfHeight {
            for x in 0..<halfWidth { half[y * halfWidth + x] = self[2 * y * width + 2 * x] }
        }
        return half
    }
}
