import FluidGradient

/// A scene option's value that cannot be used: the option and why.
struct SceneOptionError: FluidGradientError, Equatable {
    /// True: the option's value is the user's (exit status 2).
    var isInputError: Bool { true }

    /// Why the value cannot be used.
    enum Reason: Equatable {
        /// A number outside the option's bounds.
        case outOfRange(Double, allowed: ClosedRange<Double>)
        /// A seed above what a preset file's JSON number holds exactly.
        case seedTooLarge(UInt64)
        /// Text that is not `WIDTHxHEIGHT`.
        case notASize(String)
        /// A size a frame cannot have.
        case unusableSize(PresetError.Reason)
        /// A colour list with an empty entry: the list as given.
        case emptyColorEntry(String)
        /// An empty list where a colour is needed.
        case noColors
        /// More colours than a preset holds: how many were given.
        case tooManyColors(Int)
        case notAColor(ColorParseError)
        case notAFill(FillParseError)
        /// A range that is not `MIN...MAX[/STEP]` within the option's bounds.
        case badRange(RangeArgumentError)
    }

    /// The option, without its dashes.
    var option: String
    var reason: Reason

    /// `--option: why`.
    var description: String {
        let why: String
        switch reason {
        case .outOfRange(let value, let allowed):
            why = "\(ParameterRange.format(value)) is outside the allowed \(ParameterRange(allowed))"
        case .seedTooLarge(let seed):
            why =
                "\(seed) is outside the allowed 0...\(ParameterRange.format(PresetLimits.seed.upperBound)) "
                + "(what a preset file holds exactly)"
        case .notASize(let text): why = "\"\(text)\" is not a size; expected WIDTHxHEIGHT such as 1920x1080"
        case .unusableSize(let reason): why = reason.description
        case .emptyColorEntry(let text):
            why = "\"\(text)\" has an empty entry; separate colours with single commas, such as \"#0F766E,teal\""
        case .noColors: why = "give at least one colour, such as \"#0F766E,teal\""
        case .tooManyColors(let count): why = "at most \(PresetLimits.colorCount.upperBound) colours, got \(count)"
        case .notAColor(let error): why = error.description
        case .notAFill(let error): why = error.description
        case .badRange(let error): return error.description
        }
        return "--\(option): \(why)"
    }
}
