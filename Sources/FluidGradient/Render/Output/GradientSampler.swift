import Foundation

/// ``Gradient/parameter(x:y:width:height:)`` and ``Gradient/color(at:)`` specialised
/// per kind, so a row costs a few operations per pixel.
struct GradientSampler {
    let kind: Gradient.Kind
    let width: Int
    let height: Int
    let locations: [Float]
    let colors: [SIMD4<Float>]
    // linear: t = origin + x·step + y·rise (pixel centres)
    let linearStep: Double
    let linearRise: Double
    let linearOrigin: Double
    let angle: Double

    init(gradient: Gradient, width: Int, height: Int) {
        kind = gradient.kind
        self.width = width
        self.height = height
        locations = gradient.stops.map { Float($0.location) }
        colors = gradient.stops.map { SIMD4<Float>($0.color.premultiplied) }
        angle = gradient.angle
        let (s, e) = gradient.linearEndpoints
        let start = SIMD2(s.x * Double(width), s.y * Double(height))
        let axis = SIMD2(e.x * Double(width), e.y * Double(height)) - start
        let length2 = (axis * axis).sum()
        linearStep = axis.x / length2
        linearRise = axis.y / length2
        linearOrigin = (-start.x * axis.x - start.y * axis.y) / length2
    }

    func fill(row: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let y = Double(row) + 0.5
        switch kind {
        case .linear:
            let rowStart = linearOrigin + y * linearRise
            for x in 0..<width {
                out[x] = color(at: Float(rowStart + (Double(x) + 0.5) * linearStep))
            }
        case .radial:
            let v = y / Double(height) - 0.5
            for x in 0..<width {
                let u = (Double(x) + 0.5) / Double(width) - 0.5
                out[x] = color(at: Float(((u * u + v * v) * 2).squareRoot()))
            }
        case .conic:
            let dy = Double(height) / 2 - y
            for x in 0..<width {
                let degrees = atan2(dy, Double(x) + 0.5 - Double(width) / 2) * 180 / .pi
                let turn = (degrees - angle) / 360
                out[x] = color(at: Float(turn - turn.rounded(.down)))
            }
        }
    }

    @inline(__always)
    func color(at t: Float) -> SIMD4<Float> {
        if t <= locations[0] { return colors[0] }
        for index in 1..<locations.count where t < locations[index] {
            let u = (t - locations[index - 1]) / (locations[index] - locations[index - 1])
            return colors[index - 1] + (colors[index] - colors[index - 1]) * u
        }
        return colors[colors.count - 1]
    }
}
