import Foundation
import Testing

/// What people see on a terminal: progress on stderr and colour swatches, shown only
/// when the stream is a terminal, and never with `--quiet`. `script` (util-linux,
/// essential on Debian) gives the command a pseudo-terminal.
@Suite struct TerminalTests {
    /// Runs `fluidgradient` on a pseudo-terminal; returns everything it showed.
    static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, screen: String
    ) {
        let command = ([Binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func renderShowsProgressOnATerminalOnly() throws {
        let scratch = Scratch()
        let shown = try Self.onTerminal([
            "render", "--size", "160x90", "--fps", "30", "--duration", "2", "-o", scratch.file("a.mp4"),
        ])
        #expect(shown.status == 0)
        #expect(shown.screen.contains("\r" + scratch.file("a.mp4") + " frame 60/60"), "\(shown.screen)")
        #expect(shown.screen.contains("fps"))
        #expect(shown.screen.hasSuffix("\r\n"), "the progress line is ended")

        let quiet = try Self.onTerminal([
            "render", "--size", "160x90", "--duration", "1", "--quiet", "-o", scratch.file("b.mp4"),
        ])
        #expect(quiet.status == 0)
        #expect(quiet.screen.isEmpty, "\(quiet.screen)")
        let piped = run(["render", "--size", "160x90", "--duration", "1", "-o", scratch.file("c.mp4")])
        #expect(piped.stderr.isEmpty)
    }

    @Test func rawFramesAreNotPouredOntoATerminal() throws {
        let shown = try Self.onTerminal(["render", "--size", "32x18", "-o", "-"])
        #expect(shown.status == 2)
        #expect(
            shown.screen.hasPrefix("fluidgradient: -o - writes raw frames to standard output, which is a terminal"),
            "\(shown.screen)")
    }

    @Test func batchShowsJobsDoneOnATerminal() throws {
        let scratch = Scratch()
        let manifest = BatchCommandTests.setUp(scratch)
        let shown = try Self.onTerminal(["batch", manifest, "--jobs", "1"])
        #expect(shown.status == 0)
        #expect(shown.screen.contains("\r[18/18] "), "\(shown.screen)")
        #expect(shown.screen.contains("18 jobs: 18 rendered"))
        let quiet = try Self.onTerminal(["batch", manifest, "--quiet"])
        #expect(!quiet.screen.contains("\r["))
        #expect(quiet.screen.contains("18 jobs: 18 skipped"))
    }

    @Test func presetsShowSwatchesOnTrueColourTerminals() throws {
        let swatch = "\u{1B}[48;2;15;118;110m    \u{1B}[0m #0F766E"
        let trueColour = try Self.onTerminal(
            ["presets", "show", "aurora"], environment: ["COLORTERM": "truecolor", "NO_COLOR": ""])
        #expect(trueColour.screen.contains(swatch))
        let plain = try Self.onTerminal(["presets", "show", "aurora"], environment: ["COLORTERM": ""])
        #expect(!plain.screen.contains("\u{1B}["))
        #expect(plain.screen.contains("  #0F766E   rgb(15, 118, 110)"))
        let piped = run(["presets", "show", "aurora"], environment: ["COLORTERM": "truecolor"])
        #expect(!piped.stdoutText.contains("\u{1B}["))
        let noColor = try Self.onTerminal(
            ["presets", "show", "aurora"], environment: ["COLORTERM": "truecolor", "NO_COLOR": "1"])
        #expect(!noColor.screen.contains("\u{1B}["))
    }
}
