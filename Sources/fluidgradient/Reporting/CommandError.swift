import FluidGradient

/// A usage or input error that the command line finds itself, in its own words.
struct CommandError: FluidGradientError, Equatable {
    /// The one line to print.
    var message: String

    /// An error that prints `message`.
    ///
    /// - Parameter message: one line that says what is wrong and what to do.
    /// - Returns: the error.
    static func input(_ message: String) -> CommandError { CommandError(message: message) }

    var description: String { message }

    /// True: what the user typed is at fault (exit status 2).
    var isInputError: Bool { true }
}
