import Foundation

/// ``Gradient/parameter(x:y:width:height:)`` and ``Gradient/color(at:in:)`` specialised
/// per kind, so a row costs a few operations per pixel.
///
/// A gradient of sRGB colours mixed in sRGB, in an sRGB frame, is interpolated between
/// its stops as they are. Any other (another interpolation, colours outside the frame's
/// gamut, a Display P3 frame) bends between stops, so each segment between two stops is
/// tabulated at ``samplesPerSegment`` even steps, each colour computed exactly, and
/// interpolated linearly between them.
struct GradientSampler {
    let kind: Gradient.Kind
    let width: Int
    let height: Int
    let locations: [Float]
    let colors: [SIMD4<Float>]
    /// Each segment's ``samplesPerSegment`` + 1 colours, one segment after another; empty
    /// when the stops are interpolated as they are.
    let table: [SIMD4<Float>]
    // linear: t = origin + x·step + y·rise (pixel centres)
    let linearStep: Double
    let linearRise: Double
    let linearOrigin: Double
    let angle: Double

    /// Steps per segment of a tabulated gradient. The table's linear interpolation
    /// errs by about `h²/8·|f″|`: at most 0.07 levels for black to white mixed in linear
    /// light, where the sRGB curve bends most, just above its linear toe.
    static let samplesPerSegment = 1024

    init(gradient: Gradient, width: Int, height: Int, mixing: Mixing) {
        let space = mixing.frame
        kind = gradient.kind
        self.width = width
        self.height = height
        locations = gradient.stops.map { Float($0.location) }
        colors = gradient.stops.map {
            SIMD4<Float>(mixing.premultipliedInto(SIMD4<Double>($0.color.premultiplied.inColorSpace(space))))
        }
        table =
            space == .srgb && gradient.isPlainSRGB && mixing.isIdentity
            ? [] : GradientSampler.tabulate(gradient, mixing: mixing)
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
            if table.isEmpty { return colors[index - 1] + (colors[index] - colors[index - 1]) * u }
            let steps = GradientSampler.samplesPerSegment
            let position = u * Float(steps), step = min(Int(position), steps - 1)
            let entry = (index - 1) * (steps + 1) + step
            return table[entry] + (table[entry + 1] - table[entry]) * (position - Float(step))
        }
        return colors[colors.count - 1]
    }

    /// Every segment's colours at even steps, each as the frame's space writes it, in the
    /// mixing space, premultiplied.
    private static func tabulate(_ gradient: Gradient, mixing: Mixing) -> [SIMD4<Float>] {
        let steps = samplesPerSegment
        var table: [SIMD4<Float>] = []
        table.reserveCapacity((gradient.stops.count - 1) * (steps + 1))
        for segment in 0..<(gradient.stops.count - 1) {
            for step in 0...steps {
                let color = gradient.color(between: segment, at: Double(step) / Double(steps))
                table.append(SIMD4<Float>(mixing.premultipliedInto(color.inColorSpace(mixing.frame))))
            }
        }
        return table
    }
}
