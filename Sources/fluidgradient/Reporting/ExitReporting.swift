import ArgumentParser
import FluidGradientIO
import Foundation

extension FluidGradientCommand {
    /// Exits with `status`, or with 3 if what was printed on stdout (a report, a list,
    /// JSON) could not all be written: a full disk or a closed stdout loses it. A reader
    /// that stopped early (`| head`, `| grep -q`) took what it wanted, and changes nothing.
    static func exitReportingOutput(_ status: Int32) -> Never {
        let stream = standardOutputStream()
        let flushFailed = fflush(stream) != 0, reason = errno
        if flushFailed, reason == EPIPE { Foundation.exit(status) }
        if flushFailed || ferror(stream) != 0 {
            // An earlier write's errno is gone by now; the last flush keeps its own.
            printError("could not write to standard output" + (flushFailed ? ": \(systemReason(reason))" : ""))
            Foundation.exit(3)
        }
        Foundation.exit(status)
    }

    /// Prints one line for an error and exits with its status (DESIGN section 11).
    static func exit(reporting error: Error) -> Never {
        if let status = exitStatus(for: error) {
            printError("\(error)")
            Foundation.exit(status)
        }
        if let code = error as? ExitCode {
            exitReportingOutput(code.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))
            exitReportingOutput(0)
        }
        var message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = message.split(separator: "\n").first { message = String(first) }
        if let refusal = OptionValueError.first(in: CommandLine.arguments) {
            message = refusal.description
        } else if let hint = strayFFmpegOptionHint(in: CommandLine.arguments) {
            message = hint
        }
        printError(message + " (see `\(helpCommand) --help`)")
        Foundation.exit(2)
    }
}
