import FluidGradient
import Foundation
import Testing

/// DESIGN section 7: the gradient model, the linear angle rule, radial and conic fills.
@Suite struct GradientModelTests {
    static let black = RGBA.black, white = RGBA.white

    @Test func clampsSortsAndKeepsAtLeastTwoStops() throws {
        #expect(throws: GradientError.tooFewStops(1)) { try Gradient(stops: [(0, Self.black)]) }
        let gradient = try Gradient(stops: [(1.5, Self.white), (-0.2, Self.black), (0.5, RGBA(bytes: 255, 0, 0))])
        #expect(gradient.stops.map(\.location) == [0, 0.5, 1])
        #expect(gradient.stops.map(\.color) == [Self.black, RGBA(bytes: 255, 0, 0), Self.white])
    }

    @Test func insertsBetweenTheLastTwoWithTheirMeanColour() throws {
        var gradient = try Gradient(stops: [
            (0, Self.black), (0.4, RGBA(bytes: 255, 0, 0)), (1, RGBA(bytes: 0, 0, 255)),
        ])
        let id = gradient.insertStopBetweenLastTwo()
        let stop = try #require(gradient.stops.first { $0.id == id })
        #expect(abs(stop.location - 0.7) < 1e-12)
        #expect(stop.color == RGBA(red: 0.5, green: 0, blue: 0.5))
        #expect(gradient.stops.map(\.location) == [0, 0.4, stop.location, 1])
    }

    @Test func insertsAtALocationWithTheColourAlreadyThere() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (1, Self.white)])
        let before = gradient.color(at: 0.25)
        let id = gradient.insertStop(at: 0.25)
        #expect(gradient.stops.first { $0.id == id }?.color == RGBA(red: 0.25, green: 0.25, blue: 0.25))
        for t in stride(from: 0.0, through: 1, by: 0.05) {
            let difference =
                gradient.color(at: t)
                - (t == 0.25 ? before : try Gradient(stops: [(0, Self.black), (1, Self.white)]).color(at: t))
            #expect(abs(difference).max() < 1e-12, "the picture changed at \(t)")
        }
    }

    @Test func movingKeepsIdentityClampsAndResorts() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (0.5, RGBA(bytes: 255, 0, 0)), (1, Self.white)])
        let ids = gradient.stops.map(\.id)
        try gradient.moveStop(id: ids[2], to: 0.25)
        #expect(gradient.stops.map(\.id) == [ids[0], ids[2], ids[1]])
        try gradient.moveStop(id: ids[0], to: 7)
        #expect(gradient.stops.map(\.id) == [ids[2], ids[1], ids[0]])
        #expect(gradient.stops.last?.location == 1)
        try gradient.moveStop(id: ids[1], to: -3)
        #expect(gradient.stops.first?.id == ids[1] && gradient.stops.first?.location == 0)
        // Equal locations keep their current order.
        try gradient.moveStop(id: ids[2], to: 0)
        #expect(gradient.stops.map(\.id) == [ids[1], ids[2], ids[0]])
        try gradient.setColor(Self.white, ofStop: ids[1])
        #expect(gradient.stops.first { $0.id == ids[1] }?.color == Self.white)
        #expect(throws: GradientError.unknownStop(99)) { try gradient.moveStop(id: 99, to: 0.5) }
    }

    @Test func refusesToDropBelowTwoStops() throws {
        var gradient = try Gradient(stops: [(0, Self.black), (0.5, RGBA(bytes: 255, 0, 0)), (1, Self.white)])
        try gradient.removeStop(id: gradient.stops[1].id)
        #expect(gradient.stops.count == 2)
        #expect(throws: GradientError.lastTwoStops) { try gradient.removeStop(id: gradient.stops[0].id) }
        #expect(gradient.stops.count == 2)
    }

    @Test func interpolatesPremultipliedBetweenStops() throws {
        let gradient = try Gradient(stops: [
            (0.2, RGBA(red: 1, green: 0, blue: 0, alpha: 1)), (0.6, RGBA(red: 0, green: 0, blue: 1, alpha: 0.5)),
        ])
        #expect(gradient.color(at: 0) == SIMD4(1, 0, 0, 1))
        #expect(gradient.color(at: 0.9) == SIMD4(0, 0, 0.5, 0.5))
        let middle = gradient.color(at: 0.4)
        for (lane, expected) in [0.5, 0, 0.25, 0.75].enumerated() { #expect(abs(middle[lane] - expected) < 1e-12) }
        // Two stops at one location make a hard step.
        let step = try Gradient(stops: [(0, Self.black), (0.5, Self.black), (0.5, Self.white), (1, Self.white)])
        #expect(step.color(at: 0.4999) == SIMD4(0, 0, 0, 1))
        #expect(step.color(at: 0.5) == SIMD4(1, 1, 1, 1))
    }

    @Test func parsesTheCommandLineSyntax() throws {
        let fill = try Fill(parsing: "linear 270 #000 0, #123 50%, white 1")
        guard case .gradient(let gradient) = fill else {
            Issue.record("not a gradient")
            return
        }
        #expect(gradient.kind == .linear && gradient.angle == 270)
        #expect(gradient.stops.map(\.location) == [0, 0.5, 1])
        #expect(gradient.stops.map(\.color.hex) == ["#000000", "#112233", "#FFFFFF"])
        #expect(
            try Fill(parsing: "conic 45deg red, blue")
                == .gradient(
                    try Gradient(
                        kind: .conic, angle: 45, stops: [(0, RGBA(bytes: 255, 0, 0)), (1, RGBA(bytes: 0, 0, 255))])))
        #expect(try Fill(parsing: " teal ") == .color(RGBA(bytes: 0, 128, 128)))
        #expect(try Fill(parsing: fill.text) == fill)
        for bad in [
            "linear", "linear 90 red", "linear 90 red 0, blue", "linear 0 red 0, lime nan, blue 1",
            "linear 0 red inf, blue 1", "linear nan red, blue", "spiral red, blue", "linear 90 red 0, nope 1",
            "red blue", "",
        ] {
            #expect(throws: FillParseError.self, "\(bad)") { try Fill(parsing: bad) }
        }
        #expect(throws: Never.self) { try Fill(parsing: "linear -36000deg red, blue") }
        for (bare, reason) in [
            ("radial", "a radial gradient needs at least 2 stops, such as \"radial red, blue\""),
            ("linear 90", "a linear gradient needs at least 2 stops, such as \"linear red, blue\""),
            ("linear 0 red nan, blue 1", "stop 1: \"nan\" is not a location (0...1 or 0%...100%)"),
            ("linear infdeg red, blue", "the angle \"infdeg\" is not a number of degrees"),
            // The bounds of a preset file's angle (PresetLimits.gradientAngle).
            ("linear 36001 red, blue", "the angle 36001 is outside the allowed range -36000...36000"),
            ("conic -1e300deg red, blue", "the angle -1e300deg is outside the allowed range -36000...36000"),
        ] {
            #expect { try Fill(parsing: bare) } throws: { ($0 as? FillParseError)?.reason == reason }
        }
    }
}
