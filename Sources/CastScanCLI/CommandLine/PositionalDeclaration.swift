/// One positional argument a command accepts, such as the `<file>` of `cast-scan replay <file>`.
struct PositionalDeclaration: Sendable, Hashable {
    /// The name shown in help and errors, without angle brackets.
    let name: String
    /// One line describing the argument, shown in help.
    let help: String
    /// Whether the argument may be left out. Optional arguments follow the required ones.
    let isOptional: Bool
    /// Whether the argument takes all remaining positional values. Only the last may repeat.
    let isRepeating: Bool

    /// Declares a positional argument.
    init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }
}
