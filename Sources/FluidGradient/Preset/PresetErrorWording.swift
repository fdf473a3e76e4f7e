extension PresetError.Reason: CustomStringConvertible {
    /// The reason as the end of a message, in English: one sentence, without the file
    /// and key path before it.
    public var description: String {
        switch self {
        case .malformedJSON(let column, let detail): "malformed JSON at column \(column): \(detail)"
        case .wrongType(let expected, let found): "expected \(expected), found \(found)"
        case .unknownKey(let key, let suggestion, let allowed):
            "\"\(key)\" is not a known key" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
                + "; expected one of: " + allowed.joined(separator: ", ")
        case .outOfRange(let value, let allowed): PresetLimits.outside(value, allowed)
        case .notWholeNumber(let value): "expected a whole number, found \(value)"
        case .notAColor(let text, let suggestion): ColorParseError(text: text, suggestion: suggestion).description
        case .malformedColor(let text, let problem):
            ColorParseError(text: text, suggestion: nil, problem: problem).description
        case .channelOutOfRange(let channel, let value):
            "its \(channel) channel, \(ParameterRange.format(value)), is outside 0...1"
        case .wrongCount(let found, let allowed, let blobs):
            "expected "
                + (allowed.lowerBound == 0
                    ? "at most \(allowed.upperBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)")
                + (blobs ? " blobs" : " colours") + ", found \(found)"
        case .minAboveMax(let min, let max):
            "min \(ParameterRange.format(min)) is greater than max \(ParameterRange.format(max))"
        case .stepNotPositive: "a step must be greater than 0"
        case .rangeNeedsMinAndMax: "a range needs \"min\" and \"max\""
        case .notAPair(let count): "expected two numbers [x, y], found \(count == 1 ? "1 value" : "\(count) values")"
        case .notOneOf(let text, let kind, let allowed):
            "\"\(text)\" is not \(kind); expected \(PresetError.list(allowed))"
        case .notASize(let text): "\"\(text)\" is not a size; expected WIDTHxHEIGHT such as \"1920x1080\""
        case .unusableSize(let width, let height):
            "\(width)x\(height) is not a usable size: each side must be "
                + "\(PresetLimits.side.lowerBound) to \(PresetLimits.side.upperBound) pixels"
        case .sizeTooLarge(let width, let height):
            "\(width)x\(height) is too large: at most \(PresetLimits.maximumPixels) pixels (8192x8192) in all"
        case .missingColors:
            "missing: a preset needs \"colors\", a list of colours such as [\"#0F766E\", \"teal\"], "
                + "or \"blobs\", a list of explicit blobs"
        case .blobNeeds(let key): "a blob needs \"color\", \"center\" and \"radius\"; \"\(key)\" is missing"
        case .notAFill(let found): "expected a colour string or a gradient object, found \(found)"
        case .gradientNeedsStops: "a gradient needs \"stops\""
        case .stopNeedsColor: "a stop needs a \"color\""
        case .tooFewStops(let count): GradientError.tooFewStops(count).description
        case .mixedStopLocations: GradientError.mixedLocations.description
        case .imageNotPalette(let file):
            "this is a PNG image, not a palette (one colour per line or a JSON list); "
                + "to take its colours, run: fluidgradient palette \(file)"
        case .notText: "not a text file; a palette is one colour per line or a JSON list of colours"
        case .twoColorsOnALine(let first, let second):
            "\"\(first)\" and \"\(second)\" are both colours; put one colour on each line"
        case .paletteCount(let found, let allowed):
            "expected \(allowed.lowerBound) to \(allowed.upperBound) colours, one per line or as a JSON list, "
                + "found \(found)"
        case .paletteEntryNeedsColor: "a palette entry needs \"color\""
        case .grainNeedsAmount:
            "grain needs \"amount\", 0...1, such as { \"amount\": 0.08 }"
        }
    }
}

extension PresetError {
    /// `a, b or c`.
    package static func list(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
