import Foundation

/// The reduced-resolution grid the production path composites and blurs on.
///
/// Each grid value is the average of the composite over a cell of `cellSize` pixels
/// (cells whose rims are sampled at pixel centres also move and spread their content
/// with their neighbours; see ``WorkingGrid/rasterize(_:columnSpans:rowSpans:options:scratches:into:threads:)``)
/// (a real number), which is the composite convolved with a box of variance `k²/12`
/// per axis, sampled at the cell's centre. The grid is blurred with a Gaussian of
/// `sigma` cells per axis, refined 2× by Catmull-Rom interpolation (whose error is of
/// fourth order, so the blurred field survives sampling at only 2 cells per σ), and
/// resampled bilinearly, which adds a variance between 0 and `(k/2)²/4` depending on
/// where a pixel falls. The grid σ is chosen so that these add up to the σ² of DESIGN
/// section 5, counting the bilinear part as `(k/2)²/8`, which halves its largest error.
///
/// Where the frame's edges fall inside their cells matters for transparent edges. A
/// step that falls a fraction φ into a cell is represented, once blurred, as if by an
/// extra variance `k²·(φ(1 − φ) − 1/12)`: from −k²/12 on a cell boundary to +k²/6 on a
/// cell centre, averaging the box's k²/12 over φ, which is what blob rims at random
/// positions see. The frame's edges are placed at `φ = ½ − 1/(2√3)` (a Gauss–Legendre
/// node), where that variance is exactly k²/12: the cells tile the frame in a whole
/// number of cells, centred at `(c + 1/(2√3))·k`.
///
/// Measured against the oracle, the largest error is below one 8-bit level on typical
/// frames and within DESIGN's two for thin blobs (BENCHMARKS.md). When σ is
/// under 8 pixels the cells are the pixels themselves, centred on pixel centres, with
/// no refinement, and the path is the definition itself.
package struct WorkingGrid: Equatable {
    /// The blur's standard deviation in cells that the cell size aims for (at least this).
    package static let targetSigmaInCells = 2.0

    /// One axis of the grid.
    package struct Axis: Equatable {
        /// Pixels along the axis.
        package let length: Int
        /// Pixels per cell.
        package let cellSize: Double
        /// Cell `c` is centred at `(c + offset)·cellSize`: ½ at full resolution (pixel
        /// centres), 1/(2√3) otherwise (see the type's discussion of edges).
        package let offset: Double
        /// Cells that reach into the frame: `0..<cells`.
        package let cells: Int
        /// σ of the grid blur along this axis, in cells.
        package let sigma: Double
        /// The grid blur reaches `radius` cells each side (4σ: weight beyond below 10⁻⁴).
        package let radius: Int
        /// 2 when the blurred grid is refined by Catmull-Rom before the bilinear pass, else 1.
        package let refinement: Int
        /// The first blurred cell kept: what the refinement and interpolation reach.
        package var firstKept: Int { refinement == 2 ? -2 : -1 }
        /// Extra cells each side: the blur's reach plus what is kept beyond the frame.
        package var margin: Int { radius - firstKept }
        /// Cells in the composited grid, margins included.
        package var gridCount: Int { cells + 2 * margin }
        /// Blurred cells kept: from `firstKept` to `cells − firstKept − 1`.
        package var blurredCount: Int { cells - 2 * firstKept }
        /// Nodes of the refined grid: every half cell from cell −1 to cell `cells − 1`
        /// (or the blurred cells, unrefined).
        package var refinedCount: Int { refinement == 2 ? 2 * cells + 1 : blurredCount }

        init(length: Int, sigma: Double, fullResolution: Bool, largestCell: Double) {
            self.length = length
            if fullResolution {
                cellSize = 1
                offset = 0.5
                cells = length
                refinement = 1
                self.sigma = sigma
            } else {
                let forSigma = (Double(length) * WorkingGrid.targetSigmaInCells / sigma).rounded(.up)
                let spans = max(1, Int(max(forSigma, (Double(length) / largestCell).rounded(.up))))
                let k = Double(length) / Double(spans)
                cellSize = k
                offset = 1 / (2 * 3.0.squareRoot())
                cells = spans + 1
                refinement = 2
                let fine = k / 2
                self.sigma = ((sigma * sigma - k * k / 12 - fine * fine / 8).squareRoot()) / k
            }
            radius = max(1, Int((4 * self.sigma).rounded(.up)))
        }

        /// The normalised Gaussian taps of the grid blur along this axis.
        package var kernel: [Float] {
            ReferenceRenderer.gaussianKernel(sigma: sigma, radius: radius).map(Float.init)
        }

        /// Where pixel `index` falls between refined nodes: the lower node and the
        /// fraction towards the next one.
        func interpolation() -> (cell: [Int32], fraction: [Float]) {
            var cells = [Int32](repeating: 0, count: length)
            var fractions = [Float](repeating: 0, count: length)
            for index in 0..<length {
                let u = (Double(index) + 0.5) / cellSize - offset
                // Refined node m sits at cell −1 + m/r; unrefined node m at cell m − 1.
                let v = (u + 1) * Double(refinement)
                let node = v.rounded(.down)
                cells[index] = Int32(node)
                fractions[index] = Float(v - node)
            }
            return (cells, fractions)
        }
    }

    package let horizontal: Axis
    package let vertical: Axis
    /// σ of DESIGN section 5, in pixels.
    package let sigmaPixels: Double

    /// The grid for `spec`: cells of about σ/2, or at most `largestCell` pixels.
    ///
    /// - Parameters:
    ///   - spec: The frame: its size and σ.
    ///   - largestCell: The largest cell side allowed, in pixels. ``finest`` is the
    ///     largest whose cells can be sampled at pixel centres, which a scene whose rims
    ///     are too thin for the sub-sample grid needs (see ``resolvesRims(of:)``).
    package init(spec: FrameSpec, largestCell: Double = .infinity) {
        let sigma = spec.sigma
        sigmaPixels = sigma
        // Below 4-pixel cells the saving is small, and a blob's rim can be thinner than a
        // pixel, so the definition's own pixel-centre sampling matters: stay exact.
        let fullResolution = sigma / WorkingGrid.targetSigmaInCells < 4
        horizontal = Axis(
            length: spec.width, sigma: sigma, fullResolution: fullResolution, largestCell: largestCell)
        vertical = Axis(
            length: spec.height, sigma: sigma, fullResolution: fullResolution, largestCell: largestCell)
    }

    /// The largest cell side, in pixels, whose cells can be sampled at pixel centres.
    package static let finest = Double(maximumCentres - 1)

    /// The larger cell side in pixels (1 means full resolution).
    package var cellSize: Double { max(horizontal.cellSize, vertical.cellSize) }
    package var gridWidth: Int { horizontal.gridCount }
    package var gridHeight: Int { vertical.gridCount }
    package var blurredWidth: Int { horizontal.blurredCount }
    package var blurredHeight: Int { vertical.blurredCount }
    package var refinedWidth: Int { horizontal.refinedCount }
    package var refinedHeight: Int { vertical.refinedCount }
}

/// How the samples of one grid cell lie along one axis.
