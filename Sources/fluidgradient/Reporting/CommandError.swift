/// A usage or input error that the command line finds itself, in its own words.
struct CommandError: InputError, CustomStringConvertible, Equatable {
    /// The one line to print.
    var message: String

    /// An error that prints `message`.
    ///
    /// - Parameter message: one line that says what is wrong and what to do.
    /// - Returns: the error.
    static func input(_ message: String) -> CommandError { CommandError(message: message) }

    var description: String { message }
}
