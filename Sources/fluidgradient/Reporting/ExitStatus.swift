import FluidGradient
import FluidGradientIO

/// The exit status for `error` (DESIGN section 11), or nil for an error of the argument
/// parser's, which says how to use the command.
///
/// 2 is bad usage or input and 3 a failure to render or write, as the error's
/// ``FluidGradientError/isInputError`` says; 130 an interrupt.
///
/// - Parameter error: an error thrown by a command.
/// - Returns: 2, 3 or 130, or nil.
func exitStatus(for error: any Error) -> Int32? {
    if error is InterruptionError { return 130 }
    if case .interrupted = error as? RenderError { return 130 }
    guard let error = error as? any FluidGradientError else { return nil }
    return error.isInputError ? 2 : 3
}
