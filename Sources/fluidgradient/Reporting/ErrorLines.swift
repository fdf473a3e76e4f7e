import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

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
