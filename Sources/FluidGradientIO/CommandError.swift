/// A failure to report to the user: one sentence and the exit status it maps to
/// (DESIGN section 11).
package struct CommandError: Error, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Bad input: a preset, a colour, a size, a path. Exit status 2.
        case input
        /// Rendering or writing failed. Exit status 3.
        case failure
        /// Stopped by SIGINT or SIGTERM. Exit status 130.
        case interrupted
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package static func input(_ message: String) -> CommandError { CommandError(.input, message) }
    package static func failure(_ message: String) -> CommandError { CommandError(.failure, message) }
    package static let interrupted = CommandError(.interrupted, "interrupted")

    /// An interrupt, saying what was left behind.
    package static func interrupted(_ note: String) -> CommandError { CommandError(.interrupted, "interrupted; \(note)") }

    package var exitStatus: Int32 {
        switch kind {
        case .input: return 2
        case .failure: return 3
        case .interrupted: return 130
        }
    }

    package var description: String { message }
}
