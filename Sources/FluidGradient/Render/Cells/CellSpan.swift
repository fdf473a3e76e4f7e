/// How the samples of one grid cell lie along one axis.
struct CellSpan {
    /// The interval the samples spread over, before clamping.
    var lower: Float
    var upper: Float
    /// The interval the (clamped) samples fall in: what bounds their distance.
    var sampleLower: Float
    var sampleUpper: Float
    /// The same for a cell sampled at pixel centres: the first and last (clamped) centres
    /// of the pixels the span overlaps, which may lie up to half a pixel beyond it. The
    /// blobs that need pixel centres are classified over it, so that a cell sharing a
    /// pixel with its neighbour sees a blob covering that pixel's centre, not only its
    /// own span; the others keep the span's samples (a wide blob's coverage changes
    /// little within half a pixel, and such a pixel counts only for its share of the cell).
    var pixelLower: Float
    var pixelUpper: Float
    /// Share of the cell inside the frame with transparent edges (the samples cover
    /// that share only); 1 otherwise.
    var inside: Float
    /// Clamp samples into `clampLower...clampUpper` (clamp edges).
    var clamps: Bool
    var clampLower: Float
    var clampUpper: Float
    /// The cell's node and side, whatever the edges clip: where a sample at the
    /// unclamped position `p` lies in the cell is `(p − centre)/size`, in cells.
    var centre: Float
    var size: Float

    /// The spans of the grid's cells along one axis.
    static func spans(_ axis: WorkingGrid.Axis, edges: EdgeMode) -> [CellSpan] {
        let k = axis.cellSize, size = Float(axis.length)
        return (0..<axis.gridCount).map { gridIndex in
            let centre = (Double(gridIndex - axis.margin) + axis.offset) * k
            let lower = Float(centre - k / 2), upper = Float(centre + k / 2)
            var span = CellSpan(
                lower: lower, upper: upper, sampleLower: lower, sampleUpper: upper, pixelLower: 0,
                pixelUpper: 0, inside: 1, clamps: false, clampLower: 0.5, clampUpper: size - 0.5,
                centre: Float(centre), size: Float(k))
            switch edges {
            case .bleed:
                break
            case .transparent:
                span.lower = max(lower, 0)
                span.upper = max(min(upper, size), span.lower)
                span.inside = (span.upper - span.lower) / Float(k)
                span.sampleLower = span.lower
                span.sampleUpper = span.upper
            case .clamp:
                span.clamps = true
                span.sampleLower = span.clamped(lower)
                span.sampleUpper = span.clamped(upper)
            }
            span.pixelLower = span.clamped(span.firstPixel + 0.5)
            span.pixelUpper = span.clamped(span.lastPixel + 0.5)
            return span
        }
    }

    /// The interval the samples fall in, for `subsamples` per axis (or pixel centres).
    @inline(__always)
    func sampleRange(_ subsamples: Int32) -> (lower: Float, upper: Float) {
        WorkingGrid.isPixelCentres(subsamples) ? (pixelLower, pixelUpper) : (sampleLower, sampleUpper)
    }

    /// A position as sampled: clamped into the frame with clamp edges.
    @inline(__always)
    func clamped(_ p: Float) -> Float { clamps ? min(max(p, clampLower), clampUpper) : p }

    /// The first and last pixels the span overlaps (pixel `j` covers `[j, j + 1)`): the
    /// pixels ``pixels(into:weights:offsets:)`` samples, and whose centres bound
    /// `pixelLower...pixelUpper`.
    var firstPixel: Float { lower.rounded(.down) }
    var lastPixel: Float { max(upper.rounded(.up) - 1, firstPixel) }

    /// Sample `index` of `count`, at the middle of its sub-interval.
    @inline(__always)
    func sample(_ index: Int, of count: Int) -> Float {
        clamped(lower + (Float(index) + 0.5) * (upper - lower) / Float(count))
    }

    /// Writes `count` evenly spread sample positions along this axis into `positions`.
    @inline(__always)
    func samples(_ count: Int, into positions: UnsafeMutablePointer<Float>) {
        for index in 0..<count { positions[index] = sample(index, of: count) }
    }

    /// The pixels the span overlaps, for a cell sampled at pixel centres, and returns
    /// how many there are. Pixel `j` covers `[j, j + 1)` and is sampled at its centre
    /// (clamped, with clamp edges); it counts for the length of its overlap with the
    /// span (`weights`), and that overlap's middle, before clamping, is where it lies
    /// in the cell (`offsets`, in cells from the node; with clamp edges a pixel beyond
    /// the frame stands for the content repeated there). A pixel cut by a cell boundary
    /// is so shared between the two cells as its area is, whether the neighbour is
    /// sampled at pixel centres or not.
    @inline(__always)
    func pixels(
        into positions: UnsafeMutablePointer<Float>, weights: UnsafeMutablePointer<Float>,
        offsets: UnsafeMutablePointer<Float>
    ) -> Int {
        var pixel = firstPixel, n = 0
        while pixel < upper, n < WorkingGrid.maximumCentres {
            let start = max(pixel, lower), end = min(pixel + 1, upper)
            positions[n] = clamped(pixel + 0.5)
            weights[n] = end - start
            offsets[n] = ((start + end) / 2 - centre) / size
            n += 1
            pixel += 1
        }
        assert(pixel >= upper, "a span of more than \(WorkingGrid.maximumCentres - 1) pixels")
        return n
    }
}
