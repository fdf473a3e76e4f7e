/// Why a frame's palette was not taken (``Frame/palette(count:)``).
public enum PaletteError: FluidGradientError, Equatable {
    /// The count asked for is outside `allowed`, the most colours a palette takes.
    case countOutOfRange(count: Int, allowed: ClosedRange<Int>)

    /// One line that says what to ask for instead.
    public var description: String {
        switch self {
        case .countOutOfRange(let count, let allowed):
            "a palette has \(allowed.lowerBound) to \(allowed.upperBound) colours, not \(count)"
        }
    }

    /// True: the count is the caller's.
    public var isInputError: Bool { true }
}
