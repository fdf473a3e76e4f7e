/// How the rasteriser composites the working grid: production's shortcuts, or the
/// slower, direct ways that tests check those shortcuts against.
///
/// Either way gives the same cells, up to the shortcuts' stated tolerance; only
/// tests ask for anything but ``production``.
package struct RasterOptions: Equatable, Sendable {
    /// Averages the composite itself over the samples of every cell a rim crosses,
    /// instead of using the chord or bilinear surface of the cell's coverage pattern.
    package var samplesEveryRim: Bool
    /// Classifies each cell of a row against each blob directly, instead of finding the
    /// runs of cells by bisection.
    package var classifiesEveryColumn: Bool

    /// - Parameters:
    ///   - samplesEveryRim: Whether rim cells skip the chord and surface shortcuts.
    ///   - classifiesEveryColumn: Whether each row's cells are classified one by one.
    package init(samplesEveryRim: Bool = false, classifiesEveryColumn: Bool = false) {
        self.samplesEveryRim = samplesEveryRim
        self.classifiesEveryColumn = classifiesEveryColumn
    }

    /// What frames are rendered with: every shortcut taken.
    package static let production = RasterOptions()
}
