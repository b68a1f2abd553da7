import Testing

@testable import CastScanCLI

/// One clear, terminal-safe line per usage error, and the exit codes.
@Suite("UsageError")
struct UsageErrorTests {
    @Test(
        "messages",
        arguments: [
            (
                UsageError.unknownOption("--apid", suggestion: "--app-id"),
                "unknown option '--apid' (did you mean '--app-id'?)"
            ),
            (.unknownOption("--bogus", suggestion: nil), "unknown option '--bogus'"),
            (.unknownSubcommand("wach", suggestion: "watch"), "unknown subcommand 'wach' (did you mean 'watch'?)"),
            (.missingValue(option: "--app-id", usage: "--app-id <id>"), "missing value for '--app-id <id>'"),
            (.unexpectedValue(option: "--json"), "option '--json' does not take a value"),
            (.repeatedOption("--timeout"), "option '--timeout' given more than once"),
            (.unexpectedArgument("extra"), "unexpected argument 'extra'"),
            (.missingArgument("file"), "missing argument <file>"),
            (
                .invalidValue(option: "--permission", value: "maybe", allowed: ["granted", "denied", "undetermined"]),
                "--permission must be one of granted, denied, undetermined (got 'maybe')"
            ),
            (
                .invalidValue(option: "--timeout", value: "soon", expected: "a number of seconds"),
                "--timeout must be a number of seconds (got 'soon')"
            ),
            (
                .conflictingOptions("--watch", "--fail-if-empty"),
                "'--watch' and '--fail-if-empty' cannot be used together"
            ),
            (.unexpectedArgument("a\nb\u{1B}[2J"), "unexpected argument 'a\\nb\\e[2J'"),
        ])
    func messages(error: UsageError, expected: String) {
        #expect(error.message == expected)
        #expect(error.description == expected)
        #expect(!error.message.contains("\n"))
    }

    @Test(
        "exit codes",
        arguments: [
            (ExitCode.ok, 0), (.noDevices, 1), (.checkFailed, 2), (.usage, 64), (.dataError, 65), (.unavailable, 69),
            (.software, 70),
        ] as [(ExitCode, Int32)])
    func exitCodes(code: ExitCode, value: Int32) {
        #expect(code.rawValue == value)
    }
}
