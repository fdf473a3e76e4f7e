/// How widely a channel can vary across a scene's unblurred picture over an opaque
/// background: the span that bounds the blurred picture's slopes.
///
/// Over an opaque background, every pixel of the unblurred picture is a convex mix of
/// the background, a base colour `Cb`, a highlight colour `Cs` and the overlay `B(Cb, Cs)`
/// (DESIGN section 4: the weights `αs(1 − αb)`, `αs·αb`, `αb(1 − αs)` and `1 − αo` add up
/// to 1), where `Cb` is itself a mix of base colours and `Cs` of highlight colours. Overlay
/// grows with both of its inputs, so each channel stays between the smallest and the
/// largest of the colours and of the overlay of their extremes.
package enum SceneContrast {
    /// The widest span of the red, green and blue channels, 0...1.
    ///
    /// - Parameters:
    ///   - background: the fill; a background that is not opaque gives 1, since alpha and
    ///     the premultiplied colours may then span everything.
    ///   - base: the base blobs' colours.
    ///   - highlights: the highlight blobs' colours (overlay blended).
    /// - Returns: the largest `max − min` over the three channels.
    package static func span(background: Fill, base: [RGBA], highlights: [RGBA]) -> Double {
        guard background.isOpaque, !base.isEmpty else { return 1 }
        let backdrop: [RGBA]
        switch background {
        case .color(let color): backdrop = [color]
        case .gradient(let gradient): backdrop = gradient.stops.map(\.color)
        }
        func opaque(_ color: RGBA) -> SIMD4<Double> { SIMD4(color.red, color.green, color.blue, 1) }
        func bounds(_ colors: [RGBA]) -> (low: SIMD4<Double>, high: SIMD4<Double>) {
            let values = colors.map(opaque)
            return (
                values.dropFirst().reduce(values[0]) { pointwiseMin($0, $1) },
                values.dropFirst().reduce(values[0]) { pointwiseMax($0, $1) }
            )
        }
        var (low, high) = bounds(backdrop + base + highlights)
        if !highlights.isEmpty {
            let baseBounds = bounds(base), highlightBounds = bounds(highlights)
            let overlay = BlendMode.overlay
            low = pointwiseMin(low, overlay.composite(source: highlightBounds.low, backdrop: baseBounds.low))
            high = pointwiseMax(high, overlay.composite(source: highlightBounds.high, backdrop: baseBounds.high))
        }
        let span = high - low
        return min(1, max(span.x, span.y, span.z))
    }
}
