/// Builds the help text of a command from its declaration: overview, usage line, then the
/// arguments, options (the command's and those it inherits) and subcommands in two aligned
/// columns, descriptions wrapped to the width.
struct HelpFormatter {
    /// The commands from the root to the one whose help this is.
    let chain: [CommandDeclaration]
    /// The width to wrap to, in terminal columns.
    let width: Int

    /// The widest the name column gets (also at most a third of the width); longer names put
    /// their description on the next line.
    static let maxNameColumn = 28
    static let indent = "  "
    static let gap = "  "

    func text() -> String {
        let command = chain[chain.count - 1]
        var sections: [String] = []
        sections.append(hanging("OVERVIEW: ", command.abstract))
        sections.append(hanging("USAGE: ", usage(of: command)))

        let options = visibleOptions()
        var rows: [(name: String, help: String, heading: String)] = []
        for positional in command.positionals {
            rows.append(("<\(positional.name)>", positional.help, "ARGUMENTS:"))
        }
        let hasShort = options.contains { $0.shortName != nil }
        for option in options {
            rows.append((optionName(option, alignLong: hasShort), optionHelp(option), "OPTIONS:"))
        }
        for subcommand in command.subcommands {
            rows.append((subcommand.name, subcommand.abstract, "SUBCOMMANDS:"))
        }
        let nameColumn = min(
            Self.maxNameColumn, max(8, width / 3),
            rows.map { DisplayWidth.width(of: $0.name) }.max() ?? 0)
        for heading in ["ARGUMENTS:", "OPTIONS:", "SUBCOMMANDS:"] {
            let lines = rows.filter { $0.heading == heading }.flatMap {
                entry(name: $0.name, help: $0.help, nameColumn: nameColumn)
            }
            if !lines.isEmpty { sections.append(([heading] + lines).joined(separator: "\n")) }
        }
        if let discussion = command.discussion {
            sections.append(wrap(discussion, width: width).joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The command's own options after those it inherits (a redeclared key replaces the
    /// inherited one), then `-h, --help`.
    func visibleOptions() -> [OptionDeclaration] {
        var options: [OptionDeclaration] = []
        for command in chain {
            if !command.inheritsOptions { options = [] }
            for option in command.options {
                options.removeAll { $0.key == option.key }
                options.append(option)
            }
        }
        return options + [.flag("help", short: "h", help: "Show help information.")]
    }

    func usage(of command: CommandDeclaration) -> String {
        var words = chain.map(\.name)
        words.append("[<options>]")
        if !command.subcommands.isEmpty { words.append("[<subcommand>]") }
        for positional in command.positionals {
            var word = "<\(positional.name)>"
            if positional.isRepeating { word += " ..." }
            words.append(positional.isOptional ? "[\(word)]" : word)
        }
        return words.joined(separator: " ")
    }

    func optionName(_ option: OptionDeclaration, alignLong: Bool) -> String {
        var name: String
        switch (option.shortName, option.longName) {
        case (let short?, let long?): name = "-\(short), --\(long)"
        case (let short?, nil): name = "-\(short)"
        case (nil, let long?): name = (alignLong ? "    " : "") + "--\(long)"
        case (nil, nil): name = ""
        }
        if case .value(let valueName, _) = option.kind { name += " <\(valueName)>" }
        return name
    }

    func optionHelp(_ option: OptionDeclaration) -> String {
        var help = option.help
        if case .value(_, let allowed?) = option.kind {
            help += " (one of: " + allowed.joined(separator: ", ") + ")"
        }
        if option.isRepeatable { help += " (repeatable)" }
        return help
    }

    /// One entry: the name padded to the column, then the wrapped help; a name wider than the
    /// column stands alone on its line.
    func entry(name: String, help: String, nameColumn: Int) -> [String] {
        let helpIndent = String(repeating: " ", count: Self.indent.count + nameColumn + Self.gap.count)
        let helpWidth = max(10, width - helpIndent.count)
        let helpLines = wrap(help, width: helpWidth)
        var lines: [String] = []
        var rest = helpLines[...]
        if DisplayWidth.width(of: name) <= nameColumn, let first = rest.first {
            lines.append(Self.indent + DisplayWidth.pad(name, toWidth: nameColumn) + Self.gap + first)
            rest = rest.dropFirst()
        } else {
            lines.append(Self.indent + name)
        }
        lines += rest.map { helpIndent + $0 }
        return lines
    }

    /// `text` wrapped after `label`, continuation lines indented to align with the first.
    func hanging(_ label: String, _ text: String) -> String {
        let lines = wrap(text, width: max(10, width - label.count))
        let indent = String(repeating: " ", count: label.count)
        return lines.enumerated().map { ($0.offset == 0 ? label : indent) + $0.element }.joined(separator: "\n")
    }

    /// `text` split into lines of at most `width` columns at spaces (a longer word gets a line
    /// of its own).
    func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if DisplayWidth.width(of: line) + 1 + DisplayWidth.width(of: word) <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
