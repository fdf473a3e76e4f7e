/// How a blob's rim is sampled in a grid cell it crosses: how many sub-samples per axis,
/// or the pixel centres, and whether a scene's rims can be sampled on this grid at all.
extension WorkingGrid {
    /// Sub-samples per axis across a blob's rim: enough that the midpoint rule's error
    /// at the rim's two kinks, about `k / (8·n²·rim)` per cell, stays near 1%.
    ///
    /// A rim too thin for that (see ``needsPixelCentres(_:)``) is sampled at the pixel
    /// centres, as the definition samples it; its coverage then counts for the pixels it
    /// covers, each for its share of the cell. A blob narrower than two cells also moves
    /// and spreads its effect by its moments (``pixelCentres``); a wider one's rim stays
    /// in place (``pixelCentresInPlace``), since the cells beside it already carry where
    /// it lies, and moving it again was up to 3 levels off at bars 3 to 5 cells thick
    /// (in place, bars of one to two cells were up to 2 levels off).
    func subsampleCount(for blob: PlacedBlob) -> Int {
        guard cellSize > 1, !blob.isEmpty else { return 1 }
        let needed = subsamplesNeeded(for: blob)
        // Cells over 16 pixels take no pixel centres: the renderer moves such a scene to
        // a finer grid (see ``resolvesRims(of:)``); a grid used directly keeps 16 sub-samples.
        guard cellSize <= WorkingGrid.finest else { return Int(min(needed, 16)) }
        if needsPixelCentres(blob) {
            let narrow = Double(min(blob.semiAxes.x, blob.semiAxes.y)) < cellSize
            return Int(narrow ? WorkingGrid.pixelCentres : WorkingGrid.pixelCentresInPlace)
        }
        return Int(max(needed, 1))
    }

    /// The sub-samples per axis `blob`'s rim needs.
    private func subsamplesNeeded(for blob: PlacedBlob) -> Double {
        (cellSize / (0.16 * max(rimWidth(of: blob), 0.01))).squareRoot().rounded(.up)
    }

    /// The width of `blob`'s feathered rim where it is thinnest, in pixels.
    private func rimWidth(of blob: PlacedBlob) -> Double {
        0.1 * Double(min(blob.semiAxes.x, blob.semiAxes.y))
    }

    /// Whether `blob`'s rim must be sampled at the pixel centres: when the most
    /// sub-samples a cell takes (16, or one a pixel) are too few for the midpoint rule,
    /// or when they are spaced wider than half the rim and the blur leaves what that
    /// costs visible. Sub-samples that barely resolve a ramp alias against the
    /// definition's pixel centres, and along a straight edge that adds up cell after
    /// cell; the blur divides it by about σ, so it matters where the rim width times σ
    /// is under ``aliasingLimit``: 3.3 levels for an 8-pixel bar at σ 40 pixels on 16
    /// sub-samples of 16-pixel cells, 2.4 for a 36-pixel bar at σ 18 on 5 sub-samples.
    private func needsPixelCentres(_ blob: PlacedBlob) -> Bool {
        let most = min(cellSize.rounded(.up), 16), needed = subsamplesNeeded(for: blob)
        let rim = rimWidth(of: blob)
        return needed > most || (rim < 2 * cellSize / needed && rim * sigmaPixels < WorkingGrid.aliasingLimit)
    }

    /// The rim width times σ, in square pixels, below which a rim that sub-samples
    /// barely resolve is sampled at the pixel centres.
    static let aliasingLimit = 64.0

    /// Whether every rim of `scene` can be sampled on this grid: false when a rim needs
    /// pixel centres and cells are larger than ``finest``, so the scene needs a grid of
    /// ``finest`` cells.
    func resolvesRims(of scene: CompiledScene) -> Bool {
        guard cellSize > WorkingGrid.finest else { return true }
        return !scene.blobs.contains { !$0.isEmpty && needsPixelCentres($0) }
    }

    /// The sub-sample count that stands for a cell's pixel centres with its effect placed
    /// by its moments; more than any other count, so that it wins in a cell it shares.
    static let pixelCentres: Int32 = 1 << 10
    /// The sub-sample count that stands for a cell's pixel centres averaged in place;
    /// more than any count of sub-samples.
    static let pixelCentresInPlace: Int32 = 1 << 9

    /// Whether the sub-sample count `subsamples` stands for the pixel centres.
    @inline(__always)
    static func isPixelCentres(_ subsamples: Int32) -> Bool { subsamples >= pixelCentresInPlace }
    /// Pixel centres per axis in a cell of at most 16 pixels.
    static let maximumCentres = 17
}
