/// A preset name that is neither a built-in preset nor a file.
package struct UnknownPresetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    package var name: String

    /// The error for `name`.
    ///
    /// - Parameter name: the name asked for.
    package init(name: String) {
        self.name = name
    }

    /// One line that says where the presets are listed.
    package var description: String {
        "there is no built-in preset \"\(name)\"; `fluidgradient presets list` shows them, "
            + "or give a path to a .json file"
    }
}
