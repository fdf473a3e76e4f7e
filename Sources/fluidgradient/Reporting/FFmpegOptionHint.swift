import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

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
