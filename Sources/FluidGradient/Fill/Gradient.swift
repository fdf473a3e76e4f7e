import Foundation

/// Why a gradient edit or definition was refused.
public enum GradientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A gradient needs 2 stops or more; it was given this many.
    case tooFewStops(Int)
    /// No stop has this ``Gradient/Stop/id``.
    case unknownStop(Int)
    /// A gradient keeps at least 2 stops, so neither of the last two can be removed.
    case lastTwoStops
    /// Some stops were given a location and some not.
    case mixedLocations

    /// What was refused, as one line.
    public var description: String {
        switch self {
        case .tooFewStops(let count):
            return "a gradient needs at least 2 stops, got \(count)"
        case .unknownStop(let id):
            return "the gradient has no stop with id \(id)"
        case .lastTwoStops:
            return "a gradient keeps at least 2 stops, so this stop cannot be removed"
        case .mixedLocations:
            return "give every stop a location, or none (then they are spaced evenly)"
        }
    }
}

/// A multi-stop gradient: a type, an angle and stops (DESIGN section 7).
///
/// Invariants, kept by every initialiser and edit: at least two stops, locations in
/// 0...1 (clamped), stops sorted by location (stable, so equal locations keep their
/// order), and each stop has an ``Stop/id`` that survives edits.
public struct Gradient: Hashable, Sendable {
    /// The shape of a gradient.
    public enum Kind: String, CaseIterable, Sendable {
        /// Along a line through the frame at ``Gradient/angle``.
        case linear
        /// Outwards from the centre; t = 1 at the corners.
        case radial
        /// Around the centre, anticlockwise, starting at ``Gradient/angle``.
        case conic
    }

    /// The space a gradient's stops are mixed in between them (DESIGN section 13), by CSS
    /// Color 4's interpolation: premultiplied, and along the shorter hue arc for OKLCH.
    public enum Interpolation: String, CaseIterable, Sendable {
        /// Gamma-encoded sRGB, as CoreAnimation and CSS gradients do by default.
        case srgb
        /// Linear-light sRGB (CSS's `srgb-linear`).
        case linear
        /// OKLab: even steps of lightness, without the grey between complementary colours.
        case oklab
        /// OKLCH: through the hues between the stops, along the shorter arc.
        case oklch
    }

    /// A colour at a location along the gradient.
    public struct Stop: Hashable, Sendable, Identifiable {
        /// The stop's identity, kept through edits: the position it was given in.
        public let id: Int
        /// Where the stop is along the gradient, 0...1.
        public var location: Double
        /// The colour at ``location``.
        public var color: RGBA
    }

    /// The gradient's shape.
    public var kind: Kind
    /// Degrees anticlockwise from east: 0 runs left to right, 90 bottom to top.
    public var angle: Double
    /// The stops, sorted by location.
    public private(set) var stops: [Stop]
    /// The space colours are mixed in between stops.
    public var interpolation: Interpolation
    private var nextID: Int

    /// A gradient through `stops`, whose locations are clamped to 0...1 and sorted.
    ///
    /// - Parameters:
    ///   - kind: The gradient's shape.
    ///   - angle: Degrees anticlockwise from east (a linear gradient's direction, a conic
    ///     gradient's start).
    ///   - stops: 2 stops or more: a location and a colour each.
    ///   - interpolation: The space colours are mixed in between stops.
    /// - Throws: ``GradientError/tooFewStops(_:)`` for fewer than 2 stops.
    public init(
        kind: Kind = .linear, angle: Double = 0, stops: [(location: Double, color: RGBA)],
        interpolation: Interpolation = .srgb
    ) throws(GradientError) {
        guard stops.count >= 2 else { throw GradientError.tooFewStops(stops.count) }
        self.kind = kind
        self.angle = angle
        self.interpolation = interpolation
        self.stops = stops.enumerated().map { Stop(id: $0, location: Gradient.clamp($1.location), color: $1.color) }
        self.nextID = stops.count
        sortStops()
    }

    /// Inserts a stop halfway between the last two stops, with their mean colour
    /// (the seed gradient builder's tap-to-add), mixed in the gradient's interpolation
    /// space. Returns its id.
    @discardableResult
    package mutating func insertStopBetweenLastTwo() -> Int {
        let a = stops[stops.count - 2], b = stops[stops.count - 1]
        let mean =
            interpolation == .srgb
            ? a.color.mixed(with: b.color, by: 0.5) : RGBA(premultiplied: interpolation.mix(a.color, b.color, at: 0.5))
        return insert(location: (a.location + b.location) / 2, color: mean)
    }

    /// Inserts a stop at `location` (clamped) with the colour the gradient already has
    /// there, so the picture does not change. Returns its id.
    @discardableResult
    package mutating func insertStop(at location: Double) -> Int {
        let location = Gradient.clamp(location)
        return insert(location: location, color: straightColor(at: location))
    }

    /// Moves a stop to `location`, clamped to 0...1, and re-sorts.
    package mutating func moveStop(id: Int, to location: Double) throws(GradientError) {
        guard let index = stops.firstIndex(where: { $0.id == id }) else { throw GradientError.unknownStop(id) }
        stops[index].location = Gradient.clamp(location)
        sortStops()
    }

    package mutating func setColor(_ color: RGBA, ofStop id: Int) throws(GradientError) {
        guard let index = stops.firstIndex(where: { $0.id == id }) else { throw GradientError.unknownStop(id) }
        stops[index].color = color
    }

    /// Removes a stop; refused when only two remain.
    package mutating func removeStop(id: Int) throws(GradientError) {
        guard let index = stops.firstIndex(where: { $0.id == id }) else { throw GradientError.unknownStop(id) }
        guard stops.count > 2 else { throw GradientError.lastTwoStops }
        stops.remove(at: index)
    }

    /// The premultiplied colour at gradient parameter `t`, in extended sRGB. Before the
    /// first stop and after the last the end colours hold; between two stops the colours
    /// are mixed in ``interpolation``'s space, premultiplied (as CSS does, and as the
    /// blob's own feathered stops are): in sRGB, the premultiplied values are interpolated
    /// linearly.
    package func color(at t: Double) -> SIMD4<Double> {
        if t <= stops[0].location { return stops[0].color.premultiplied }
        for index in 1..<stops.count where t < stops[index].location {
            let a = stops[index - 1], b = stops[index]
            return color(between: index - 1, at: (t - a.location) / (b.location - a.location))
        }
        return stops[stops.count - 1].color.premultiplied
    }

    /// The premultiplied colour, in extended sRGB, a fraction `u` of the way from stop
    /// `index` to the next, mixed in ``interpolation``'s space.
    package func color(between index: Int, at u: Double) -> SIMD4<Double> {
        let a = stops[index].color, b = stops[index + 1].color
        guard interpolation == .srgb else { return interpolation.mix(a, b, at: u) }
        return a.premultiplied + (b.premultiplied - a.premultiplied) * u
    }

    /// The premultiplied colour at `t` as `space` writes it: ``color(at:)`` brought into
    /// the space's gamut by CSS Color 4's gamut mapping, gamma-encoded.
    package func color(at t: Double, in space: ColorSpace) -> SIMD4<Double> {
        color(at: t).inColorSpace(space)
    }

    /// The straight colour at `t` (the premultiplied colour, unpremultiplied).
    package func straightColor(at t: Double) -> RGBA {
        RGBA(premultiplied: color(at: t))
    }

    /// Whether every colour of the gradient lies inside sRGB and mixes in sRGB, so that
    /// an sRGB frame takes its premultiplied stops as they are.
    package var isPlainSRGB: Bool { interpolation == .srgb && stops.allSatisfy(\.color.isInsideSRGB) }

    /// Whether every stop is opaque.
    package var isOpaque: Bool { stops.allSatisfy { $0.color.isOpaque } }

    /// The linear gradient's start and end points in unit space (y down): the point
    /// `(cos θ, sin θ)` pushed out to the edge of the square (the larger of |x|, |y|
    /// becomes 1), and its opposite, mapped from [−1, 1]² with y up to [0, 1]² with y down.
    package var linearEndpoints: (start: SIMD2<Double>, end: SIMD2<Double>) {
        let radians = angle * .pi / 180
        var direction = SIMD2(cos(radians), sin(radians))
        direction /= max(abs(direction.x), abs(direction.y))
        func toUnit(_ p: SIMD2<Double>) -> SIMD2<Double> { SIMD2(0.5 + 0.5 * p.x, 0.5 - 0.5 * p.y) }
        return (toUnit(-direction), toUnit(direction))
    }

    /// The gradient parameter at pixel-space point `(x, y)` of a `width × height` frame.
    ///
    /// - linear: the projection onto the start→end line, in pixels (isolines are
    ///   perpendicular to that line on screen, as in `CAGradientLayer`);
    /// - radial: `sqrt(((x/W − ½)² + (y/H − ½)²) / ½)`, so 0 at the centre and 1 at the corners;
    /// - conic: the on-screen angle anticlockwise from ``angle``, as a fraction of a turn.
    package func parameter(x: Double, y: Double, width: Double, height: Double) -> Double {
        switch kind {
        case .linear:
            let (s, e) = linearEndpoints
            let start = SIMD2(s.x * width, s.y * height), end = SIMD2(e.x * width, e.y * height)
            let axis = end - start
            let offset = SIMD2(x, y) - start
            return (offset * axis).sum() / (axis * axis).sum()
        case .radial:
            let u = x / width - 0.5, v = y / height - 0.5
            return ((u * u + v * v) * 2).squareRoot()
        case .conic:
            let degrees = atan2(height / 2 - y, x - width / 2) * 180 / .pi
            let turn = (degrees - angle) / 360
            return turn - turn.rounded(.down)
        }
    }

    private mutating func insert(location: Double, color: RGBA) -> Int {
        let id = nextID
        nextID += 1
        stops.append(Stop(id: id, location: location, color: color))
        sortStops()
        return id
    }

    /// Stable sort by location: stops at the same location keep their insertion order.
    private mutating func sortStops() {
        stops = stops.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }

    private static func clamp(_ location: Double) -> Double {
        location.isNaN ? 0 : min(max(location, 0), 1)
    }

    /// Whether two gradients have the same kind, angle, stops and interpolation.
    public static func == (lhs: Gradient, rhs: Gradient) -> Bool {
        lhs.kind == rhs.kind && lhs.angle == rhs.angle && lhs.stops == rhs.stops
            && lhs.interpolation == rhs.interpolation
    }

    /// Hashes the kind, angle, stops and interpolation, which `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(angle)
        hasher.combine(stops)
        hasher.combine(interpolation)
    }
}
