import FluidGradient
import FluidGradientIO

/// An error in what the user gave (a flag, an environment variable, a file's contents):
/// exit status 2. The command line's own error types conform to it.
protocol InputError: Error {}

extension BatchManifestError: InputError {}
extension ShardEnvironmentError: InputError {}

/// The exit status for `error` (DESIGN section 11), or nil for an error of the argument
/// parser's, which says how to use the command.
///
/// 2 is bad usage or input, 3 a failure to render or write, 130 an interrupt.
///
/// - Parameter error: an error thrown by a command.
/// - Returns: 2, 3 or 130, or nil.
func exitStatus(for error: any Error) -> Int32? {
    if error is InterruptionError { return 130 }
    if error is InputError { return 2 }
    switch ErrorBlame(error) {
    case .input: return 2
    case .failure: return 3
    case nil: return nil
    }
}
