/// The result of parsing a command line: which (sub)command was chosen, and the options and
/// positional arguments given to it.
struct ParsedArguments: Sendable, Hashable {
    /// The chosen command: the root command's name, then each subcommand's name.
    let commandPath: [String]
    /// Whether `-h` or `--help` was given. When set, other results are incomplete and no
    /// usage error was reported: the caller prints help for `commandPath` and exits 0.
    let isHelpRequested: Bool
    /// All positional arguments, in order.
    let positionals: [String]

    /// Values by option key; a flag records one empty string per occurrence.
    let optionValues: [String: [String]]
    /// Values by positional name.
    let positionalValues: [String: [String]]

    init(
        commandPath: [String],
        isHelpRequested: Bool,
        positionals: [String],
        optionValues: [String: [String]],
        positionalValues: [String: [String]]
    ) {
        self.commandPath = commandPath
        self.isHelpRequested = isHelpRequested
        self.positionals = positionals
        self.optionValues = optionValues
        self.positionalValues = positionalValues
    }

    /// The chosen subcommand below the root command, if any (the caller picks a default when
    /// this is `nil`).
    var subcommand: String? {
        commandPath.count > 1 ? commandPath[1] : nil
    }

    /// Whether `option` was given.
    func isSet(_ option: OptionDeclaration) -> Bool {
        count(of: option) > 0
    }

    /// How many times `option` was given.
    func count(of option: OptionDeclaration) -> Int {
        optionValues[option.key]?.count ?? 0
    }

    /// The value given to `option`, the last one if it is repeatable; `nil` if not given.
    func value(of option: OptionDeclaration) -> String? {
        optionValues[option.key]?.last
    }

    /// Every value given to `option`, in command-line order.
    func values(of option: OptionDeclaration) -> [String] {
        optionValues[option.key] ?? []
    }

    /// The value of `option` converted by `transform`; `nil` if not given. A value `transform`
    /// rejects is a `UsageError.invalidValue` saying the value must be `expected`
    /// (e.g. "a number of seconds").
    func value<T>(
        of option: OptionDeclaration, expected: String, _ transform: (String) -> T?
    ) throws(UsageError) -> T? {
        guard let text = value(of: option) else { return nil }
        guard let converted = transform(text) else {
            throw .invalidValue(option: option.displayName, value: text, expected: expected)
        }
        return converted
    }

    /// The value given to `positional`, the first one if it repeats; `nil` if not given.
    func value(of positional: PositionalDeclaration) -> String? {
        positionalValues[positional.name]?.first
    }

    /// Every value given to `positional`, in order.
    func values(of positional: PositionalDeclaration) -> [String] {
        positionalValues[positional.name] ?? []
    }
}
