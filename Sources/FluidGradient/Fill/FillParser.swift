/// Why a fill string was rejected.
package struct FillParseError: Error, Equatable, CustomStringConvertible {
    package var text: String
    package var reason: String

    package var description: String { "\"\(text)\" is not a fill: \(reason)" }

    /// The accepted forms, for help and error text.
    package static let syntax =
        "a colour (#RGB, #RRGGBB, #RRGGBBAA, a CSS name, rgb(), hsl(), oklab(), oklch() or color()), or a gradient "
        + "\"TYPE [ANGLE] [in SPACE] COLOR [LOCATION], COLOR [LOCATION], ...\" with TYPE linear, radial or conic "
        + "and SPACE srgb (the default), linear, oklab or oklch, "
        + "for example \"linear 270 in oklab #0B1026 0, #3B1E54 0.6, #9B3675 1\""
}

extension Fill {
    /// Parses a colour, or `TYPE [ANGLE] [in SPACE] COLOR [LOCATION], COLOR [LOCATION], ...`.
    /// Locations are 0...1 or percentages, given for every stop or for none (then evenly
    /// spaced); the angle is in degrees (an optional `deg` suffix is allowed); SPACE is the
    /// interpolation, `srgb` when left out. A colour function's own commas and spaces
    /// (`rgb(255, 95, 109)`) stay in its stop.
    package init(parsing text: String) throws(FillParseError) {
        let segments = text.splitOutsideParentheses(omittingEmpty: false) { $0 == "," }.map {
            $0.splitOutsideParentheses(omittingEmpty: true, where: \.isWhitespace).map(String.init)
        }
        guard let first = segments.first, let head = first.first else {
            throw FillParseError(text: text, reason: "it is empty; expected \(FillParseError.syntax)")
        }
        guard let kind = Gradient.Kind(rawValue: head.asciiLowercased()) else {
            guard segments.count == 1, first.count == 1 else {
                throw FillParseError(text: text, reason: "expected \(FillParseError.syntax)")
            }
            do {
                self = .color(try RGBA(parsing: head))
            } catch {
                throw FillParseError(text: text, reason: error.description)
            }
            return
        }
        var firstStop = Array(first.dropFirst())
        let interpolationFirst = try Fill.interpolation(taking: &firstStop, of: text)
        let angle = try Fill.angle(taking: &firstStop, of: text)
        var interpolation = interpolationFirst ?? .srgb
        if interpolationFirst == nil, let after = try Fill.interpolation(taking: &firstStop, of: text) {
            interpolation = after
        }
        if segments.count == 1, firstStop.isEmpty {
            throw FillParseError(
                text: text, reason: "a \(kind.rawValue) gradient needs at least 2 stops, such as \"\(head) red, blue\"")
        }
        let stops = try Fill.stops([firstStop] + segments.dropFirst(), of: text)
        do {
            self = .gradient(
                try Gradient(
                    kind: kind, angle: angle, stops: try Gradient.resolveLocations(stops), interpolation: interpolation)
            )
        } catch {
            throw FillParseError(text: text, reason: error.description)
        }
    }

    /// The interpolation `in SPACE` at the start of `tokens`, taken off them; nil when
    /// there is none.
    ///
    /// - Parameters:
    ///   - tokens: the words after the gradient's type, up to the first comma.
    ///   - text: the whole fill, which errors quote.
    /// - Returns: the interpolation.
    /// - Throws: ``FillParseError`` for `in` without a space or with an unknown one.
    private static func interpolation(
        taking tokens: inout [String], of text: String
    ) throws(FillParseError) -> Gradient.Interpolation? {
        guard tokens.first?.lowercased() == "in" else { return nil }
        let allowed = PresetError.list(Gradient.Interpolation.allCases.map(\.rawValue))
        guard tokens.count >= 2 else {
            throw FillParseError(text: text, reason: "\"in\" needs a space after it: \(allowed)")
        }
        guard let space = Gradient.Interpolation(rawValue: tokens[1].lowercased()) else {
            throw FillParseError(
                text: text, reason: "\"\(tokens[1])\" is not an interpolation space; expected \(allowed)")
        }
        tokens.removeFirst(2)
        return space
    }

    /// The angle in degrees at the start of `tokens`, taken off them; 0 when there is none.
    ///
    /// - Parameters:
    ///   - tokens: the words after the gradient's type, up to the first comma.
    ///   - text: the whole fill, which errors quote.
    /// - Returns: the angle.
    /// - Throws: ``FillParseError`` for an angle out of bounds or not finite.
    private static func angle(taking tokens: inout [String], of text: String) throws(FillParseError) -> Double {
        guard let token = tokens.first else { return 0 }
        if let value = Fill.number(token, suffix: "deg") {
            // The bounds a preset file's angle is held to.
            guard PresetLimits.gradientAngle.contains(value) else {
                let reason = "the angle " + PresetLimits.outside(token, PresetLimits.gradientAngle)
                throw FillParseError(text: text, reason: reason)
            }
            tokens.removeFirst()
            return value
        }
        let degrees = token.asciiLowercased().hasSuffix("deg") ? String(token.dropLast(3)) : token
        if let value = Double(degrees), !value.isFinite {
            throw FillParseError(text: text, reason: "the angle \"\(token)\" is not a number of degrees")
        }
        return 0
    }

    /// Each stop's colour and location, as written.
    ///
    /// - Parameters:
    ///   - segments: each stop's words, `COLOR [LOCATION]`.
    ///   - text: the whole fill, which errors quote.
    /// - Returns: the stops in order.
    /// - Throws: ``FillParseError`` naming the stop at fault, from 1.
    private static func stops(
        _ segments: [[String]], of text: String
    ) throws(FillParseError) -> [(location: Double?, color: RGBA)] {
        var stops: [(location: Double?, color: RGBA)] = []
        for (index, tokens) in segments.enumerated() {
            guard (1...2).contains(tokens.count) else {
                throw FillParseError(text: text, reason: "stop \(index + 1) should be \"COLOR [LOCATION]\"")
            }
            let color: RGBA
            do {
                color = try RGBA(parsing: tokens[0])
            } catch {
                throw FillParseError(text: text, reason: "stop \(index + 1): \(error.description)")
            }
            var location: Double?
            if tokens.count == 2 {
                if let percent = Fill.number(tokens[1], suffix: "%"), tokens[1].hasSuffix("%") {
                    location = percent / 100
                } else if let value = Double(tokens[1]), value.isFinite {
                    location = value
                } else {
                    throw FillParseError(
                        text: text, reason: "stop \(index + 1): \"\(tokens[1])\" is not a location (0...1 or 0%...100%)"
                    )
                }
            }
            stops.append((location, color))
        }
        return stops
    }

    private static func number(_ token: String, suffix: String) -> Double? {
        let trimmed = token.asciiLowercased().hasSuffix(suffix) ? String(token.dropLast(suffix.count)) : token
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// The fill written back in the syntax ``init(parsing:)`` reads.
    package var text: String {
        switch self {
        case .color(let color):
            return color.text
        case .gradient(let gradient):
            let stops = gradient.stops.map { "\($0.color.text) \(ParameterRange.format($0.location))" }
            let space = gradient.interpolation == .srgb ? "" : "in \(gradient.interpolation.rawValue) "
            return "\(gradient.kind.rawValue) \(ParameterRange.format(gradient.angle)) \(space)"
                + stops.joined(separator: ", ")
        }
    }
}
