import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

@main
struct FluidGradientCommand: ParsableCommand {
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
        subcommands: [Render.self, Presets.self, Compare.self, Palette.self, Batch.self, Bench.self]
    )

    static func main() {
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
            try command.run()
        } catch {
            exit(reporting: error)
        }
        exitReportingOutput(0)
    }

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

extension FluidGradientCommand {
    /// One line for a word where a subcommand belongs that is none (`rendr`, `presets lst`,
    /// `help nope`), with the nearest one, or nil.
    static func unknownCommand(in arguments: [String]) -> String? {
        var words = arguments.dropFirst()
        // `help X` asks for X's help, so X must be a command too (`help help` is one).
        if words.first == "help" { words = words.dropFirst() }
        guard words.first != "help", case (let path, let unmatched?) = commandPath(words) else { return nil }
        let names = unmatched.choices.map(name(of:)), word = unmatched.word
        let nearest = names.min { editDistance($0, word) < editDistance($1, word) }!
        let suggestion = editDistance(nearest, word) <= 2 ? " (did you mean '\(nearest)'?)" : ""
        return "unknown command '\(word)'\(suggestion); the commands are \(names.joined(separator: ", ")) "
            + "(see `\((["fluidgradient"] + path).joined(separator: " ")) --help`)"
    }

    /// The subcommands that `words` name in turn from the root, up to the first option or a
    /// command without subcommands; and the first word where a subcommand belongs that
    /// names none, with the subcommands it could have named.
    static func commandPath(_ words: some Sequence<String>) -> (
        path: [String], unmatched: (word: String, choices: [ParsableCommand.Type])?
    ) {
        var path: [String] = []
        var subcommands = configuration.subcommands
        for word in words {
            guard !word.hasPrefix("-"), !subcommands.isEmpty else { break }
            guard let match = subcommands.first(where: { name(of: $0) == word }) else {
                return (path, (word, subcommands))
            }
            path.append(word)
            subcommands = match.configuration.subcommands
        }
        return (path, nil)
    }

    /// The name `command` is called by, which each subcommand's configuration gives.
    static func name(of command: ParsableCommand.Type) -> String {
        guard let name = command.configuration.commandName else { preconditionFailure("\(command) has no commandName") }
        return name
    }
}

extension FluidGradientCommand {
    /// For `render --ffmpeg-options -crf 23`, unquoted, which the parser refuses for the word
    /// left over (`23`), as `render` takes no word there: a line that says what went wrong,
    /// or nil when the arguments hold no such pair.
    static func strayFFmpegOptionHint(in arguments: [String]) -> String? {
        guard commandPath(arguments.dropFirst()).path == [name(of: Render.self)] else { return nil }
        // `--ffmpeg-options=VALUE` as two words, like `--ffmpeg-options VALUE`.
        let words = arguments.flatMap { word -> [String] in
            word.hasPrefix("--ffmpeg-options=")
                ? ["--ffmpeg-options", String(word.dropFirst("--ffmpeg-options=".count))] : [word]
        }
        guard let flag = words.firstIndex(of: "--ffmpeg-options"), flag + 2 < words.count else { return nil }
        let value = words[flag + 1], stray = words[flag + 2]
        // Only one word that reads as an ffmpeg option, followed by one that does not.
        guard value.hasPrefix("-"), !value.contains(where: \.isWhitespace), !stray.hasPrefix("-") else { return nil }
        return
            "--ffmpeg-options takes one value, '\(value)', so '\(stray)' was left over: "
            + "quote all the ffmpeg options together, as in --ffmpeg-options \"\(value) \(stray)\""
    }
}

/// `fluidgradient render` when the user was running `render` (`fluidgradient presets show`
/// for `presets show`): where to look for help.
var helpCommand: String {
    (["fluidgradient"] + FluidGradientCommand.commandPath(CommandLine.arguments.dropFirst()).path).joined(
        separator: " ")
}

/// Prints `message` on stderr as one line (see ``oneLine(_:)``) of a readable length (see
/// ``shortened(_:)``); a message that cannot be written is lost
/// (``StandardStreams/writeError(_:)``). Every error line goes out through here.
func printError(_ message: String) {
    StandardStreams.writeError("fluidgradient: \(shortened(oneLine(message)))\n")
}

/// Prints `line` on stderr whole, as one line (see ``oneLine(_:)``): for what `--verbose`
/// asks to see in full, such as the ffmpeg command line, which a script may run itself.
func printWhole(_ line: String) {
    StandardStreams.writeError("fluidgradient: \(oneLine(line))\n")
}

/// `text` with line breaks, other control characters and invisible format characters (a
/// byte-order mark, a direction override), which a file's contents or a path could bring
/// in, shown escaped, never acted on.
func oneLine(_ text: String) -> String {
    let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if hidden.contains(scalar.properties.generalCategory) {
            result.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
        } else {
            result.append(scalar)
        }
    }
    return String(result)
}

/// The most characters of a message an error line shows.
let longestMessage = 400

/// `message`, or when it is longer than `limit` characters, its start and its end with
/// the middle left out and counted. A message is long only when it echoes a long value
/// (a file's contents, a path, a flag's text), and the middle of such a message lies in
/// that value, so what it says about the value, before and after, is kept.
///
/// - Parameters:
///   - message: one line.
///   - limit: the most characters to keep, besides the count of those left out.
/// - Returns: the line to show.
func shortened(_ message: String, limit: Int = longestMessage) -> String {
    let length = message.count
    guard length > limit else { return message }
    // The end says what was expected, often the longer part of what surrounds a value.
    let head = message.prefix(limit * 2 / 5), tail = message.suffix(limit - head.count)
    return "\(head)…(\(length - head.count - tail.count) characters left out)…\(tail)"
}
