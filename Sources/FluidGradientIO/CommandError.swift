/// A failure to report to the user: one sentence and the exit status it maps to
/// (DESIGN section 11).
public struct CommandError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Bad input: a preset, a colour, a size, a path. Exit status 2.
        case input
        /// Rendering or writing failed. Exit status 3.
        case failure
        /// Stopped by SIGINT or SIGTERM. Exit status 130.
        case interrupted
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public static func input(_ message: String) -> CommandError { CommandError(.input, message) }
    public static func failure(_ message: String) -> CommandError { CommandError(.failure, message) }
    public static let interrupted = CommandError(.interrupted, "interrupted")

    /// An interrupt, saying what was left behind.
    public static func interrupted(_ note: String) -> CommandError { CommandError(.interrupted, "interrupted; \(note)") }

    public var exitStatus: Int32 {
        switch kind {
        case .input: return 2
        case .failure: return 3
        case .interrupted: return 130
        }
    }

    public var description: String { message }
}
