/// A command (or subcommand) and everything it accepts; the input of `ArgumentParser` and of the
/// generated help.
///
/// A command with subcommands takes no positional arguments: its first positional word names
/// the subcommand. A subcommand also accepts every option of the commands above it, unless it
/// is declared with `inheritsOptions: false`.
struct CommandDeclaration: Sendable {
    /// The command's name as typed (`cast-scan`, `watch`).
    var name: String
    /// One line saying what the command does.
    var abstract: String
    /// More text shown at the end of the help, if any.
    var discussion: String?
    /// The options, in the order help lists them. `-h` and `--help` are always accepted.
    var options: [OptionDeclaration]
    /// The positional arguments, in order.
    var positionals: [PositionalDeclaration]
    /// The subcommands, in the order help lists them.
    var subcommands: [CommandDeclaration]
    /// Whether the options of the commands above this one are accepted here too.
    var inheritsOptions: Bool

    /// Declares a command.
    init(
        name: String,
        abstract: String,
        discussion: String? = nil,
        options: [OptionDeclaration] = [],
        positionals: [PositionalDeclaration] = [],
        subcommands: [CommandDeclaration] = [],
        inheritsOptions: Bool = true
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.inheritsOptions = inheritsOptions
    }

    /// Stops with a message if the declaration is inconsistent (a programming error).
    func validate(inherited: [OptionDeclaration] = []) {
        precondition(subcommands.isEmpty || positionals.isEmpty, "'\(name)' has both subcommands and positionals")
        let all = inherited + options
        for option in options {
            precondition(option.longName != "help" && option.shortName != "h", "'-h/--help' is reserved")
            precondition(options.filter { $0.key == option.key }.count == 1, "'\(option.key)' declared twice")
        }
        let shorts = options.compactMap(\.shortName)
        precondition(Set(shorts).count == shorts.count, "'\(name)' repeats a short option name")
        for (index, positional) in positionals.enumerated() {
            precondition(
                !positional.isRepeating || index == positionals.count - 1, "only the last positional may repeat")
            if index > 0 && positionals[index - 1].isOptional {
                precondition(positional.isOptional, "a required positional follows an optional one")
            }
        }
        for subcommand in subcommands { subcommand.validate(inherited: subcommand.inheritsOptions ? all : []) }
    }
}
