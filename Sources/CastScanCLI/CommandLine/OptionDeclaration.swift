/// One option a command accepts: a flag such as `--json` or `-4`, or an option with a value
/// such as `--app-id ID` (also written `--app-id=ID`, `-a ID` or `-aID`).
struct OptionDeclaration: Sendable, Hashable {
    /// What follows the option's name.
    enum Kind: Sendable, Hashable {
        /// Nothing: the option is on or off.
        case flag
        /// One value, named `valueName` in help; when `allowedValues` is set, any other value
        /// is a usage error.
        case value(valueName: String, allowedValues: [String]?)
    }

    /// The long name without dashes (`json` for `--json`), if any.
    let longName: String?
    /// The one-character short name (`4` for `-4`), if any.
    let shortName: Character?
    /// Whether the option is a flag or takes a value.
    let kind: Kind
    /// Whether the option may be given more than once; values are then collected in order.
    let isRepeatable: Bool
    /// One line describing the option, shown in help.
    let help: String

    /// Declares a flag. At least one of `name` and `short` is required.
    static func flag(
        _ name: String?, short: Character? = nil, repeatable: Bool = false, help: String
    ) -> OptionDeclaration {
        OptionDeclaration(longName: name, shortName: short, kind: .flag, isRepeatable: repeatable, help: help)
    }

    /// Declares an option that takes a value. At least one of `name` and `short` is required.
    static func value(
        _ name: String?,
        short: Character? = nil,
        valueName: String,
        allowedValues: [String]? = nil,
        repeatable: Bool = false,
        help: String
    ) -> OptionDeclaration {
        OptionDeclaration(
            longName: name, shortName: short,
            kind: .value(valueName: valueName, allowedValues: allowedValues),
            isRepeatable: repeatable, help: help)
    }

    private init(longName: String?, shortName: Character?, kind: Kind, isRepeatable: Bool, help: String) {
        precondition(longName != nil || shortName != nil, "an option needs a long or a short name")
        if let longName {
            precondition(
                !longName.isEmpty && !longName.hasPrefix("-") && !longName.contains("="),
                "invalid long option name '\(longName)'")
        }
        if let shortName {
            precondition(shortName != "-" && shortName != "=" && !shortName.isWhitespace, "invalid short name")
        }
        self.longName = longName
        self.shortName = shortName
        self.kind = kind
        self.isRepeatable = isRepeatable
        self.help = help
    }

    /// The key under which `ParsedArguments` records the option: the long name, else the short.
    var key: String {
        longName ?? String(shortName ?? "?")
    }

    /// The option as a user types it: `--json`, or `-4` for a short-only option.
    var displayName: String {
        longName.map { "--" + $0 } ?? "-" + String(shortName ?? "?")
    }

    /// Whether the option takes a value.
    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }
}
