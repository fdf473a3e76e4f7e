import ArgumentParser
import FluidGradient
import FluidGradientIO
import Foundation

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
