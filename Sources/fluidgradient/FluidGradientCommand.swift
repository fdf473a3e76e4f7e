import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

@main
struct FluidGradientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fluidgradient",
        abstract: "Render soft, drifting, heavily blurred colour-blob gradients to PNG, video or raw frames.",
        discussion: """
            Frames are deterministic: the same preset, seed, size and time give the same pixels, \
            byte for byte, at any thread count, so they can serve as goldens in regression tests.

            Exit status: 0 success; 1 compare found a difference; 2 bad usage or input; \
            3 rendering or writing failed (ffmpeg missing or failing, disk full, stdout not writable); \
            130 interrupted (Ctrl-C, SIGTERM, or the terminal closing; a signal the launcher ignores \
            stays ignored).
            """,
        version: Preset.engineVersion,
        subcommands: [Render.self, Presets.self, Compare.self, Palette.self, Colors.self, Batch.self, Bench.self]
    )

    static func main() async {
        StandardStreams.reserveClosedDescriptors()
        Interruption.install()
        // Reports go out whole at exit, where a failed write can still change the status.
        // (glibc ignores the size unless it is given the buffer; this one lives as long as the process.)
        if isatty(1) == 0 { setvbuf(standardOutputStream(), .allocate(capacity: 1 << 20), _IOFBF, 1 << 20) }
        if let unknown = unknownCommand(in: CommandLine.arguments) {
            printError(unknown)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error)
        }
        exitReportingOutput(0)
    }
}
