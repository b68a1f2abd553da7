/// Parses command lines for a declared command and its subcommands.
///
/// The syntax is the usual POSIX/GNU one:
///
/// - `--name` and `-n` set a flag; short flags can be bundled (`-46`);
/// - `--name VALUE`, `--name=VALUE`, `-n VALUE` and `-nVALUE` give an option its value;
///   a following word that starts with `-` is taken as the value only when it is `-` alone or
///   looks like a negative number (`-1`, `-0.5`), so that the value's own check can say what
///   is wrong with it; write `--name=-x` for other such values;
/// - a repeatable option collects its values in order; any other option may appear once;
/// - in a command that has subcommands, the first positional word names the subcommand; the
///   options of the command remain accepted after it, unless the subcommand does not inherit
///   them, in which case an option given before it is an error;
/// - `--` ends the options: every later word is positional, even if it starts with `-`;
/// - `-h` and `--help` request help, and win over any other mistake on the line.
struct ArgumentParser: Sendable {
    /// The root command.
    let command: CommandDeclaration

    /// Creates a parser for `command`. An inconsistent declaration (duplicate names, a
    /// positional after a repeating one, `-h` redeclared) is a programming error and traps.
    init(command: CommandDeclaration) {
        command.validate()
        self.command = command
    }

    /// Parses `arguments`, which start with the program name as `CommandLine.arguments` does.
    ///
    /// Throws the first mistake on the line, unless help was requested.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var state = State(root: command)
        var index = 1
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                state.takePositional(argument, afterDoubleDash: onlyPositionals)
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument.hasPrefix("--") {
                state.takeLong(argument, arguments: arguments, index: &index)
            } else {
                state.takeShortBundle(argument, arguments: arguments, index: &index)
            }
        }
        let path = state.chain.map(\.name)
        if state.isHelpRequested {
            return ParsedArguments(
                commandPath: path, isHelpRequested: true, positionals: state.positionals,
                optionValues: state.values, positionalValues: [:])
        }
        if let error = state.firstError { throw error }
        let assigned = try assign(state.positionals, to: state.chain.last?.positionals ?? [])
        return ParsedArguments(
            commandPath: path, isHelpRequested: false, positionals: state.positionals,
            optionValues: state.values, positionalValues: assigned)
    }

    /// The help text of the command at `commandPath` (as in `ParsedArguments.commandPath`),
    /// wrapped to `width` columns.
    func helpText(for commandPath: [String] = [], width: Int = 80) -> String {
        HelpFormatter(chain: chain(for: commandPath), width: width).text()
    }

    /// The commands from the root to the one named by `commandPath`, stopping at the first
    /// unknown name.
    func chain(for commandPath: [String]) -> [CommandDeclaration] {
        var chain = [command]
        for name in commandPath.dropFirst() {
            guard let next = chain[chain.count - 1].subcommands.first(where: { $0.name == name }) else { break }
            chain.append(next)
        }
        return chain
    }

    private func assign(
        _ words: [String], to declarations: [PositionalDeclaration]
    ) throws(UsageError) -> [String: [String]] {
        var assigned: [String: [String]] = [:]
        var remaining = words[...]
        for declaration in declarations {
            if remaining.isEmpty {
                if declaration.isOptional { break }
                throw .missingArgument(declaration.name)
            }
            if declaration.isRepeating {
                assigned[declaration.name] = Array(remaining)
                remaining = []
            } else {
                assigned[declaration.name] = [remaining.removeFirst()]
            }
        }
        if let extra = remaining.first { throw .unexpectedArgument(extra) }
        return assigned
    }

    /// The closest of `candidates` to `input`: the only candidate `input` is a prefix of, or
    /// else the one at the smallest edit distance if that is small for the input's length.
    static func suggestion(for input: String, among candidates: [String]) -> String? {
        guard !input.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.hasPrefix(input) }
        if prefixed.count == 1 { return prefixed[0] }
        let limit = max(2, input.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(input, candidate)
            if distance <= limit, distance < input.count, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

extension ArgumentParser {
    /// The state of one parse: the command chain so far, what was collected, the first error.
    struct State {
        var chain: [CommandDeclaration]
        var longOptions: [String: OptionDeclaration] = [:]
        var shortOptions: [Character: OptionDeclaration] = [:]
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var isHelpRequested = false
        var firstError: UsageError?

        init(root: CommandDeclaration) {
            chain = [root]
            addOptions(of: root)
        }

        mutating func fail(_ error: UsageError) {
            if firstError == nil { firstError = error }
        }

        mutating func addOptions(of command: CommandDeclaration) {
            for option in command.options {
                if let long = option.longName { longOptions[long] = option }
                if let short = option.shortName { shortOptions[short] = option }
            }
        }

        mutating func takePositional(_ word: String, afterDoubleDash: Bool) {
            let current = chain[chain.count - 1]
            guard !afterDoubleDash, !current.subcommands.isEmpty else {
                positionals.append(word)
                return
            }
            if let subcommand = current.subcommands.first(where: { $0.name == word }) {
                chain.append(subcommand)
                if !subcommand.inheritsOptions {
                    longOptions = [:]
                    shortOptions = [:]
                    let own = Set(subcommand.options.map(\.key))
                    for key in values.keys.sorted() where !own.contains(key) {
                        let name = key.count == 1 ? "-" + key : "--" + key
                        fail(.optionNotAccepted(option: name, command: subcommand.name))
                    }
                }
                addOptions(of: subcommand)
            } else {
                let names = current.subcommands.map(\.name)
                fail(.unknownSubcommand(word, suggestion: ArgumentParser.suggestion(for: word, among: names)))
            }
        }

        mutating func takeLong(_ argument: String, arguments: [String], index: inout Int) {
            let body = argument.dropFirst(2)
            let name: Substring
            let inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inline = String(body[body.index(after: equals)...])
            } else {
                name = body
                inline = nil
            }
            if name == "help" {
                isHelpRequested = true
                return
            }
            guard let option = longOptions[String(name)] else {
                fail(.unknownOption("--" + name, suggestion: suggestLong(for: "--" + name)))
                return
            }
            take(option, inline: inline, spelled: "--" + name, arguments: arguments, index: &index)
        }

        mutating func takeShortBundle(_ argument: String, arguments: [String], index: inout Int) {
            let letters = Array(argument.dropFirst())
            var position = 0
            while position < letters.count {
                let letter = letters[position]
                position += 1
                if letter == "h" {
                    isHelpRequested = true
                    continue
                }
                guard let option = shortOptions[letter] else {
                    if position == 1 && letters.count > 1 {
                        // `-json`: most likely a long option typed with one dash.
                        fail(.unknownOption(argument, suggestion: suggestLong(for: "-" + argument)))
                    } else {
                        fail(.unknownOption("-" + String(letter), suggestion: nil))
                    }
                    return
                }
                if option.takesValue {
                    let rest = String(letters[position...])
                    take(
                        option, inline: rest.isEmpty ? nil : rest, spelled: "-" + String(letter),
                        arguments: arguments, index: &index)
                    return
                }
                take(option, inline: nil, spelled: "-" + String(letter), arguments: arguments, index: &index)
            }
        }

        /// Whether `word` is a minus sign followed by a digit or a dot and digits (`-1`, `-.5`).
        static func looksNegative(_ word: String) -> Bool {
            let rest = word.utf8.dropFirst()
            guard let first = rest.first else { return false }
            let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            return digit(first) || (first == UInt8(ascii: ".") && rest.dropFirst().first.map(digit) == true)
        }

        func suggestLong(for spelled: String) -> String? {
            ArgumentParser.suggestion(for: spelled, among: longOptions.keys.sorted().map { "--" + $0 } + ["--help"])
        }

        mutating func take(
            _ option: OptionDeclaration, inline: String?, spelled: String, arguments: [String], index: inout Int
        ) {
            if !option.isRepeatable && values[option.key] != nil {
                fail(.repeatedOption(spelled))
            }
            switch option.kind {
            case .flag:
                if inline != nil { fail(.unexpectedValue(option: spelled)) }
                values[option.key, default: []].append("")
            case .value(let valueName, let allowedValues):
                var value = inline
                if value == nil, index < arguments.count {
                    let next = arguments[index]
                    if next == "-" || !next.hasPrefix("-") || Self.looksNegative(next) {
                        value = next
                        index += 1
                    }
                }
                guard let value else {
                    fail(.missingValue(option: spelled, usage: spelled + " <" + valueName + ">"))
                    return
                }
                if let allowedValues, !allowedValues.contains(value) {
                    fail(.invalidValue(option: spelled, value: value, allowed: allowedValues))
                }
                values[option.key, default: []].append(value)
            }
        }
    }
}
