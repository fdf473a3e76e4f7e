import Foundation

/// Upper bounds, in 8-bit levels, on how far a frame rendered `k` times smaller (its point
/// scale divided by `k`, so σ is divided by `k` too) and scaled back up bilinearly, as
/// players do, can be from the frame rendered at full size.
///
/// Both are samples of one picture: the small frame's pixel centres fall on every `k`-th
/// position of the large one's, and the upscale interpolates between them. Two things
/// part them:
/// - near the border, the upscale repeats the outermost encoded pixel, whose centre lies
///   `k/2` pixels in, where the full frame's lies `1/2`: an error of the slope times that
///   distance, worst at a corner, where the offset is diagonal;
/// - inside, bilinear interpolation misses the picture's curvature and its kinks.
///
/// The blurred blob layer is smooth: a Gaussian blur of a field whose channels span at most
/// `contrast` has slopes of at most `contrast/(σ·√(2π))` and second derivatives of at most
/// `contrast·2φ(1)/σ²` (φ the standard normal density), whatever the blobs do. The
/// background is not blurred, so its gradient's slopes and kinks count as they are.
package enum UpscaleErrorBound {
    /// `φ(1) = e^(−1/2)/√(2π)`: a blurred step's steepest curvature is `2φ(1)/σ²` per unit of height.
    static let curvatureConstant = exp(-0.5) / (2 * Double.pi).squareRoot()

    /// The bound for the blurred blob layer composited over a background inside `contrast`.
    ///
    /// - Parameters:
    ///   - sigma: σ at the full size, in pixels.
    ///   - contrast: the widest span of a channel the unblurred picture can take (0...1).
    ///   - factor: `k`, the full size over the encoded size.
    /// - Returns: the bound in 8-bit levels: the corner term `(k − 1)/√2` pixels times the
    ///   steepest slope, plus the curvature terms of the corner and of the interpolation.
    package static func blurred(sigma: Double, contrast: Double, factor k: Double) -> Double {
        let slope = contrast / (sigma * (2 * Double.pi).squareRoot())
        let curvature = contrast * 2 * curvatureConstant / (sigma * sigma)
        let corner = (k - 1) / 2.squareRoot()
        return 255 * (slope * corner + curvature * (corner * corner / 2 + k * k / 4))
    }

    /// The bound for the background fill, which is not blurred.
    ///
    /// - Parameters:
    ///   - fill: the background.
    ///   - width: the full width in pixels.
    ///   - height: the full height in pixels.
    ///   - factor: `k`, the full size over the encoded size.
    /// - Returns: the bound in 8-bit levels: 0 for a colour; for a gradient its steepest
    ///   slope times the corner offset plus each kink inside the frame; infinite for a hard
    ///   stop (two stops at one location with different colours) inside the frame, or a
    ///   conic gradient that changes colour, whose centre holds every colour within a pixel.
    package static func background(_ fill: Fill, width: Int, height: Int, factor k: Double) -> Double {
        guard case .gradient(let gradient) = fill, let profile = GradientProfile(gradient) else { return 0 }
        let w = Double(width), h = Double(height)
        // |∂t/∂x| and |∂t/∂y| at their largest, in gradient units per pixel; how far the
        // upscale of a kink of unit slope jump strays, per pixel of spacing; and which
        // stop locations the frame crosses (a kink or break on its border or beyond is in
        // no cell of encoded samples).
        let across: SIMD2<Double>, kinkSpread: Double, crosses: (Double) -> Bool
        switch gradient.kind {
        case .linear:
            let (start, end) = gradient.linearEndpoints
            let axis = (end - start) * SIMD2(w, h)
            across = SIMD2(abs(axis.x), abs(axis.y)) / (axis * axis).sum()
            // A ramp's kink halfway between two samples: a quarter of the spacing (any angle).
            kinkSpread = (across * across).sum().squareRoot() / 4
            let corners = [(0.0, 0.0), (w, 0), (0, h), (w, h)].map {
                gradient.parameter(x: $0.0, y: $0.1, width: w, height: h)
            }
            let (low, high) = (corners.min()!, corners.max()!)
            crosses = { low < $0 && $0 < high }
        case .radial:
            // t = √(2·((x/W − ½)² + (y/H − ½)²)): a cone, steepest along the shorter side.
            across = SIMD2(2.squareRoot() / w, 2.squareRoot() / h)
            // max(0, t − location) is convex with slope at most √2/min(W, H) per pixel, and
            // a bilinear upscale of a convex function strays at most its slope times the
            // half diagonal of a cell, k/√2 (the cone's apex at the centre attains it).
            kinkSpread = (2.squareRoot() / min(w, h)) / 2.squareRoot()
            // t is 0 at the centre and reaches 1 only at the corners.
            crosses = { $0 < 1 }
        case .conic:
            return profile.steepest == 0 ? 0 : .infinity
        }
        if profile.breaks.contains(where: crosses) { return .infinity }
        let edge = profile.steepest * (across.x + across.y) * (k - 1) / 2
        let kinks = profile.kinks.filter { crosses($0.location) }.map(\.size).reduce(0, +) * kinkSpread * k
        return 255 * (edge + kinks)
    }

    /// The product of the blurred layer's coverage and the background's slope: a term of
    /// the second order, small beside the others, kept so that the sum stays a bound.
    package static func cross(_ fill: Fill, width: Int, height: Int, sigma: Double, factor k: Double) -> Double {
        guard case .gradient(let gradient) = fill, let profile = GradientProfile(gradient) else { return 0 }
        let steepest = profile.steepest * 2.squareRoot() / Double(min(width, height))
        return 255 * k * k / 2 * steepest / (sigma * (2 * Double.pi).squareRoot())
    }
}

/// A gradient's colour as a function of its parameter t: how steep each stretch between
/// stops is, and how much the slope turns at each stop, on premultiplied channels.
struct GradientProfile {
    /// The steepest change of a channel per unit of t.
    let steepest: Double
    /// At each stop, the largest change of a channel's slope there (the ends count: beyond
    /// them the colour holds).
    let kinks: [(location: Double, size: Double)]
    /// Where two stops at one location have different colours.
    let breaks: [Double]

    /// Nil for a gradient whose stops all have one colour: it is a flat fill.
    init?(_ gradient: Gradient) {
        let stops = gradient.stops
        guard stops.contains(where: { $0.color.premultiplied != stops[0].color.premultiplied }) else { return nil }
        func largest(_ v: SIMD4<Double>) -> Double { max(v.max(), -v.min()) }
        var kinks: [(location: Double, size: Double)] = [], breaks: [Double] = [], steepest = 0.0
        var slope = SIMD4<Double>.zero
        for (index, stop) in stops.enumerated() {
            var after = SIMD4<Double>.zero
            if index + 1 < stops.count {
                let next = stops[index + 1]
                let change = next.color.premultiplied - stop.color.premultiplied
                guard next.location > stop.location else {
                    // Two stops at one location: the slope turns at the second.
                    if change != .zero { breaks.append(stop.location) }
                    continue
                }
                after = change / (next.location - stop.location)
            }
            kinks.append((stop.location, largest(after - slope)))
            steepest = max(steepest, largest(after))
            slope = after
        }
        self.steepest = steepest
        self.kinks = kinks
        self.breaks = breaks
    }
}
