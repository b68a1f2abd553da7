import Testing

@testable import CastScanCLI

/// A `cast-scan`-like command used by the parser and help tests.
enum Sample {
    static let json = OptionDeclaration.flag("json", help: "Print JSON instead of a table.")
    static let ipv4 = OptionDeclaration.flag("ipv4", short: "4", help: "Only IPv4 addresses.")
    static let ipv6 = OptionDeclaration.flag(nil, short: "6", help: "Only IPv6 addresses.")
    static let verbose = OptionDeclaration.flag("verbose", short: "v", repeatable: true, help: "More detail.")
    static let appID = OptionDeclaration.value(
        "app-id", short: "a", valueName: "id", repeatable: true, help: "Also browse devices for this app.")
    static let timeout = OptionDeclaration.value("timeout", short: "t", valueName: "seconds", help: "How long to scan.")
    static let permission = OptionDeclaration.value(
        "permission", valueName: "state", allowedValues: ["granted", "denied", "undetermined"],
        help: "The simulated local-network permission.")
    static let failIfEmpty = OptionDeclaration.flag("fail-if-empty", help: "Exit 1 when no device is found.")
    static let file = PositionalDeclaration("file", help: "A replay file.")
    static let more = PositionalDeclaration("more", help: "More files.", isOptional: true, isRepeating: true)

    static let command = CommandDeclaration(
        name: "cast-scan",
        abstract: "List Google Cast devices on the local network.",
        options: [json, ipv4, ipv6, verbose, appID, timeout, permission],
        subcommands: [
            CommandDeclaration(name: "list", abstract: "List devices once.", options: [failIfEmpty]),
            CommandDeclaration(name: "watch", abstract: "Follow devices as they change."),
            CommandDeclaration(name: "replay", abstract: "Replay a recorded session.", positionals: [file, more]),
        ])

    static let parser = ArgumentParser(command: command)

    static func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try parser.parse(["/usr/bin/cast-scan"] + words)
    }
}

/// Command-line parsing and its usage errors.
@Suite("ArgumentParser")
struct ArgumentParserTests {
    @Test("flags, values, positionals and subcommands")
    func accepted() throws {
        let parsed = try Sample.parse([
            "--json", "-4", "--app-id", "CC1AD845", "-a=x", "--app-id=233637DE", "-aFFFF", "-vv",
            "--timeout", "5", "--permission=denied", "list", "--fail-if-empty",
        ])
        #expect(parsed.commandPath == ["cast-scan", "list"])
        #expect(parsed.subcommand == "list")
        #expect(!parsed.isHelpRequested)
        #expect(parsed.isSet(Sample.json))
        #expect(parsed.isSet(Sample.ipv4))
        #expect(!parsed.isSet(Sample.ipv6))
        #expect(parsed.count(of: Sample.verbose) == 2)
        #expect(parsed.values(of: Sample.appID) == ["CC1AD845", "=x", "233637DE", "FFFF"])
        #expect(parsed.value(of: Sample.appID) == "FFFF")
        #expect(parsed.value(of: Sample.timeout) == "5")
        #expect(try parsed.value(of: Sample.timeout, expected: "a number of seconds", Double.init) == 5)
        #expect(parsed.value(of: Sample.permission) == "denied")
        #expect(parsed.isSet(Sample.failIfEmpty))
        #expect(parsed.positionals.isEmpty)
    }

    @Test(
        "equivalent spellings",
        arguments: [
            ["--timeout", "5"], ["--timeout=5"], ["-t", "5"], ["-t5"], ["-46t5"],
        ])
    func spellings(words: [String]) throws {
        #expect(try Sample.parse(words).value(of: Sample.timeout) == "5")
    }

    @Test("no subcommand: the caller chooses")
    func noSubcommand() throws {
        let parsed = try Sample.parse(["--json"])
        #expect(parsed.commandPath == ["cast-scan"])
        #expect(parsed.subcommand == nil)
    }

    @Test("positionals, '--' and '-'")
    func positionals() throws {
        let parsed = try Sample.parse(["replay", "--json", "-", "--", "--not-an-option", "-4"])
        #expect(parsed.subcommand == "replay")
        #expect(parsed.isSet(Sample.json))
        #expect(!parsed.isSet(Sample.ipv4))
        #expect(parsed.positionals == ["-", "--not-an-option", "-4"])
        #expect(parsed.value(of: Sample.file) == "-")
        #expect(parsed.values(of: Sample.more) == ["--not-an-option", "-4"])
        #expect(try Sample.parse(["replay", "a.json"]).values(of: Sample.more) == [])
        #expect(try Sample.parse(["--timeout=-5"]).value(of: Sample.timeout) == "-5")
        #expect(try Sample.parse(["--app-id="]).values(of: Sample.appID) == [""])
    }

    @Test(
        "help wins over everything else",
        arguments: [
            (["--help"], ["cast-scan"]),
            (["-h"], ["cast-scan"]),
            (["-4h"], ["cast-scan"]),
            (["--bogus", "-h"], ["cast-scan"]),
            (["watch", "--help"], ["cast-scan", "watch"]),
            (["replay", "-h"], ["cast-scan", "replay"]),
            (["--timeout", "-h"], ["cast-scan"]),
        ])
    func help(words: [String], path: [String]) throws {
        let parsed = try Sample.parse(words)
        #expect(parsed.isHelpRequested)
        #expect(parsed.commandPath == path)
    }

    @Test("'--help' after '--' is a positional")
    func helpAfterDoubleDash() throws {
        let parsed = try Sample.parse(["replay", "--", "--help"])
        #expect(!parsed.isHelpRequested)
        #expect(parsed.value(of: Sample.file) == "--help")
    }

    @Test(
        "usage errors",
        arguments: [
            (["--apid", "x"], UsageError.unknownOption("--apid", suggestion: "--app-id")),
            (["--jsno"], .unknownOption("--jsno", suggestion: "--json")),
            (["--perm=granted"], .unknownOption("--perm", suggestion: "--permission")),
            (["-json"], .unknownOption("-json", suggestion: "--json")),
            (["--bogus"], .unknownOption("--bogus", suggestion: nil)),
            (["-x"], .unknownOption("-x", suggestion: nil)),
            (["-4x"], .unknownOption("-x", suggestion: nil)),
            (["--fail-if-empty"], .unknownOption("--fail-if-empty", suggestion: nil)),
            (["wach"], .unknownSubcommand("wach", suggestion: "watch")),
            (["frobnicate"], .unknownSubcommand("frobnicate", suggestion: nil)),
            (["--app-id"], .missingValue(option: "--app-id", usage: "--app-id <id>")),
            (["--app-id", "--json"], .missingValue(option: "--app-id", usage: "--app-id <id>")),
            (["-t"], .missingValue(option: "-t", usage: "-t <seconds>")),
            (["--json=yes"], .unexpectedValue(option: "--json")),
            (["--json", "--json"], .repeatedOption("--json")),
            (["--timeout", "1", "-t", "2"], .repeatedOption("-t")),
            (
                ["--permission", "maybe"],
                .invalidValue(option: "--permission", value: "maybe", expected: "one of granted, denied, undetermined")
            ),
            (["list", "extra"], .unexpectedArgument("extra")),
            (["replay"], .missingArgument("file")),
            (["--bogus", "--json=1"], .unknownOption("--bogus", suggestion: nil)),
        ])
    func errors(words: [String], expected: UsageError) {
        #expect(throws: expected) { try Sample.parse(words) }
    }

    @Test("a converted value that does not convert is an invalid value")
    func invalidConversion() throws {
        let parsed = try Sample.parse(["--timeout", "soon"])
        #expect(throws: UsageError.invalidValue(option: "--timeout", value: "soon", expected: "a number of seconds")) {
            try parsed.value(of: Sample.timeout, expected: "a number of seconds", Double.init)
        }
    }

    @Test(
        "suggestions",
        arguments: [
            ("--apid", "--app-id"), ("--jsn", "--json"), ("--time", "--timeout"), ("--ipv6", "--ipv4"),
            ("--xyzzy", nil), ("--p", "--permission"), ("", nil),
        ] as [(String, String?)])
    func suggestions(input: String, expected: String?) {
        let candidates = ["--app-id", "--json", "--timeout", "--ipv4", "--permission", "--help"]
        #expect(ArgumentParser.suggestion(for: input, among: candidates) == expected)
    }

    @Test(
        "edit distance",
        arguments: [("", "", 0), ("abc", "", 3), ("kitten", "sitting", 3), ("json", "jsno", 1), ("apid", "app-id", 2)])
    func editDistance(a: String, b: String, expected: Int) {
        #expect(ArgumentParser.editDistance(a, b) == expected)
        #expect(ArgumentParser.editDistance(b, a) == expected)
    }
}

@Suite("ArgumentParser: subcommands that do not inherit options")
struct ArgumentParserIsolationTests {
    static let tap = OptionDeclaration.flag("tap", help: "Tap.")
    static let jsonl = OptionDeclaration.flag("jsonl", help: "Lines.")
    static let parser = ArgumentParser(
        command: CommandDeclaration(
            name: "tool", abstract: "A tool.", options: [tap],
            subcommands: [
                CommandDeclaration(name: "watch", abstract: "Watch.", options: [jsonl], inheritsOptions: false)
            ]))

    @Test("a parent option after the subcommand is unknown; before it, not accepted")
    func isolation() throws {
        #expect(throws: UsageError.unknownOption("--tap", suggestion: nil)) {
            try Self.parser.parse(["tool", "watch", "--tap"])
        }
        #expect(throws: UsageError.optionNotAccepted(option: "--tap", command: "watch")) {
            try Self.parser.parse(["tool", "--tap", "watch"])
        }
        #expect(try Self.parser.parse(["tool", "watch", "--jsonl"]).isSet(Self.jsonl))
        #expect(try Self.parser.parse(["tool", "--tap"]).isSet(Self.tap))
    }

    @Test("help of such a subcommand lists only its own options")
    func help() {
        let help = Self.parser.helpText(for: ["tool", "watch"])
        #expect(help.contains("--jsonl"))
        #expect(!help.contains("--tap"))
    }
}
