import FluidGradient

/// A preset name that is neither a built-in preset nor a file.
public struct UnknownPresetError: FluidGradientError, Equatable {
    /// The name asked for.
    public var name: String
    /// The built-in preset whose name is nearest to ``name``, when one is within two edits
    /// (`auroa` for `aurora`).
    public var suggestion: String?

    /// The error for `name`, suggesting the nearest of `names`.
    ///
    /// - Parameters:
    ///   - name: the name asked for.
    ///   - names: the names there are.
    package init(name: String, among names: [String]) {
        self.name = name
        let scored = names.map { ($0, editDistance(name.lowercased(), $0)) }
        suggestion = scored.min { $0.1 < $1.1 }.flatMap { $0.1 <= 2 ? $0.0 : nil }
    }

    /// One line that names the nearest preset and says where the presets are listed.
    public var description: String {
        "there is no built-in preset \"\(name)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
            + "; `fluidgradient presets list` shows them, or give a path to a .json file"
    }

    /// True: the name is the caller's.
    public var isInputError: Bool { true }
}
