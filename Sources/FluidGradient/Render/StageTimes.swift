/// Seconds spent in each stage of the production path, summed over frames.
package struct StageTimes: Sendable {
    package var raster: Double = 0
    package var blur: Double = 0
    package var output: Double = 0

    package init() {}
}
