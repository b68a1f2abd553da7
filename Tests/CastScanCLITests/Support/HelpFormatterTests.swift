import Testing

@testable import CastScanCLI

/// Help generated from the declarations.
@Suite("Help text")
struct HelpFormatterTests {
    @Test("root command help")
    func rootHelp() {
        let expected = """
            OVERVIEW: List Google Cast devices on the local network.

            USAGE: cast-scan [<options>] [<subcommand>]

            OPTIONS:
                  --json                Print JSON instead of a table.
              -4, --ipv4                Only IPv4 addresses.
              -6                        Only IPv6 addresses.
              -v, --verbose             More detail. (repeatable)
              -a, --app-id <id>         Also browse devices for this app. (repeatable)
              -t, --timeout <seconds>   How long to scan.
                  --permission <state>  The simulated local-network permission. (one of:
                                        granted, denied, undetermined)
              -h, --help                Show help information.

            SUBCOMMANDS:
              list                      List devices once.
              watch                     Follow devices as they change.
              replay                    Replay a recorded session.

            """
        #expect(Sample.parser.helpText() == expected)
    }

    @Test("subcommand help lists inherited options and positionals")
    func subcommandHelp() {
        let help = Sample.parser.helpText(for: ["cast-scan", "replay"])
        #expect(help.contains("USAGE: cast-scan replay [<options>] <file> [<more> ...]\n"))
        #expect(help.contains("ARGUMENTS:\n  <file>  "))
        #expect(help.contains("  <more>                    More files.\n"))
        #expect(help.contains("      --json  "))
        #expect(!help.contains("SUBCOMMANDS"))
        let list = Sample.parser.helpText(for: ["cast-scan", "list"])
        #expect(list.contains("      --fail-if-empty       Exit 1 when no device is found.\n"))
    }

    @Test("narrow help: long names stand alone, overview and usage wrap")
    func narrow() {
        let help = Sample.parser.helpText(width: 40)
        #expect(help.hasPrefix("OVERVIEW: List Google Cast devices on\n          the local network.\n\nUSAGE: cast-scan [<options>]\n       [<subcommand>]\n"))
        #expect(help.contains("      --permission <state>\n"))
    }

    @Test("every line fits the width", arguments: [40, 60, 80, 100])
    func wraps(width: Int) {
        for path in [["cast-scan"], ["cast-scan", "replay"]] {
            for line in Sample.parser.helpText(for: path, width: width).split(separator: "\n") {
                // Only an unbreakable name or word may exceed the width.
                #expect(DisplayWidth.width(of: line) <= width || !line.contains(" "), "\(line)")
            }
        }
    }
}
