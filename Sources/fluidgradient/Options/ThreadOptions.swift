import ArgumentParser
import Foundation

/// `--threads`, shared by every command that renders.
struct ThreadOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Threads to render with, 1 to 256. Default: one per core. The output is identical for any count.",
            valueName: "N"), transform: number)
    var threads: Int?

    func validate() throws {
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be 1 to 256, not \(threads)")
        }
    }

    var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }
}
