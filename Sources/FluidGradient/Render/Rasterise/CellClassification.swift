/// One grid row's classification: per cell, each blob's coverage (0, 1, or −1 across
/// its rim), how many rims cross the cell, the last blob present and the sub-samples
/// the finest rim needs.
final class RasterRow {
    let width: Int
    let blobCount: Int
    let coverage: UnsafeMutablePointer<Float>
    let rims: UnsafeMutablePointer<Int32>
    let lastPresent: UnsafeMutablePointer<Int32>
    let subsamples: UnsafeMutablePointer<Int32>

    /// - Parameters:
    ///   - width: Cells in the row.
    ///   - blobCount: Coverages per cell: the scene's blobs, at least one.
    init(width: Int, blobCount: Int) {
        self.width = width
        self.blobCount = blobCount
        coverage = .allocate(capacity: width * blobCount)
        rims = .allocate(capacity: width)
        lastPresent = .allocate(capacity: width)
        subsamples = .allocate(capacity: width)
    }

    /// Clears the row for the next grid row: no blob present anywhere.
    func reset() {
        coverage.update(repeating: 0, count: width * blobCount)
        rims.update(repeating: 0, count: width)
        lastPresent.update(repeating: -1, count: width)
        subsamples.update(repeating: 1, count: width)
    }

    deinit {
        coverage.deallocate()
        rims.deallocate()
        lastPresent.deallocate()
        subsamples.deallocate()
    }

    /// Marks each cell of this row within `columns`: 1 inside the blob, −1 across
    /// its rim, 0 outside; and keeps the per-cell rim count, last blob present and
    /// sub-sample count up to date.
    ///
    /// `d² = ((x − cx)/a)² + ((y − cy)/b)²` is a sum of one term in x and one in y, so its
    /// least and greatest values over a cell's rectangle of samples are exact and cheap:
    /// the cell is inside when the greatest is at most 0.81, outside when the least is
    /// at least 1.
    ///
    /// - Parameters:
    ///   - blob: The blob, which must be classified after every blob before it.
    ///   - index: The blob's index in the scene.
    ///   - subsamples: The sub-sample count of its rim (see ``WorkingGrid/subsampleCount(for:)``).
    ///   - rowSpan: The grid row's span.
    ///   - columnSpans: Every column's span.
    ///   - columns: The columns whose samples can reach the blob's bounding box.
    ///   - everyColumn: Tests each column, instead of finding the run of columns the blob
    ///     reaches by bisection (see ``RasterOptions/classifiesEveryColumn``).
    func classify(
        _ blob: PlacedBlob, index: Int, subsamples: Int32, rowSpan: CellSpan,
        columnSpans: UnsafeBufferPointer<CellSpan>, columns: Range<Int>, everyColumn: Bool
    ) {
        assert(index < blobCount && columns.upperBound <= width, "a blob or column beyond the row")
        let top = blob.center.y - blob.semiAxes.y, bottom = blob.center.y + blob.semiAxes.y
        let rowRange = rowSpan.sampleRange(subsamples)
        guard rowRange.upper >= top, rowRange.lower <= bottom else { return }
        let (nearY, farY) = RasterRow.squaredRange(
            rowRange.lower, rowRange.upper, center: blob.center.y, inverse: blob.inverseSemiAxes.y)
        func squared(_ column: Int) -> (near: Float, far: Float) {
            let range = columnSpans[column].sampleRange(subsamples)
            return RasterRow.squaredRange(
                range.lower, range.upper, center: blob.center.x, inverse: blob.inverseSemiAxes.x)
        }
        if everyColumn {
            for column in columns {
                let (near, far) = squared(column)
                if near + nearY < 1 { mark(column, blob: index, inside: far + farY <= 0.81, subsamples: subsamples) }
            }
            return
        }
        // The spans move right column by column, so the least d² falls and then rises
        // across the row: the cells the blob reaches are one run of columns around the
        // one nearest the centre: the first whose samples reach the centre, or the one before.
        let first = RasterRow.firstColumn(in: columns) {
            columnSpans[$0].sampleRange(subsamples).upper >= blob.center.x
        }
        var nearest = min(first, columns.upperBound - 1)
        if nearest > columns.lowerBound, squared(nearest - 1).near < squared(nearest).near { nearest -= 1 }
        guard squared(nearest).near + nearY < 1 else { return }
        let present =
            RasterRow.firstColumn(in: columns.lowerBound..<nearest) {
                squared($0).near + nearY < 1
            }..<RasterRow.firstColumn(in: (nearest + 1)..<columns.upperBound) { squared($0).near + nearY >= 1 }
        for column in present {
            mark(column, blob: index, inside: squared(column).far + farY <= 0.81, subsamples: subsamples)
        }
    }

    /// Records that `blob` reaches cell `column`: wholly inside it, or across its rim.
    @inline(__always)
    private func mark(_ column: Int, blob: Int, inside: Bool, subsamples: Int32) {
        lastPresent[column] = Int32(blob)
        if inside {
            coverage[column * blobCount + blob] = 1
        } else {
            coverage[column * blobCount + blob] = -1
            rims[column] += 1
            self.subsamples[column] = max(self.subsamples[column], subsamples)
        }
    }

    /// The first column of `range` where `isPast` holds, or its end: `isPast` must be
    /// false and then true across the range.
    @inline(__always)
    static func firstColumn(in range: Range<Int>, where isPast: (Int) -> Bool) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if isPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The least and greatest `((p − center)·inverse)²` for `p` in `lower...upper`.
    @inline(__always)
    static func squaredRange(_ lower: Float, _ upper: Float, center: Float, inverse: Float) -> (Float, Float) {
        let a = (lower - center) * inverse, b = (upper - center) * inverse
        let far = max(a * a, b * b)
        let near = lower <= center && center <= upper ? 0 : min(a * a, b * b)
        return (near, far)
    }
}
