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
        #expect(
            help.hasPrefix(
                "OVERVIEW: List Google Cast devices on\n          the local network.\n\nUSAGE: cast-scan [<options>]\n       [<subcommand>]\n"
            ))
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

    @Test("no command's help says \"(repeatable)\" twice: the formatter adds it, no declaration does")
    func repeatableOnce() {
        let tree = CastScan.root.declarationTree
        let parser = ArgumentParser(command: tree)
        for path in CommandTreeTests.paths(tree) {
            // Wide enough that no help is wrapped: a line holds one option's whole help.
            let help = parser.helpText(for: path, width: 10_000)
            for line in help.split(separator: "\n") {
                #expect(
                    line.components(separatedBy: "(repeatable)").count <= 2, "\(path.joined(separator: " ")): \(line)")
            }
            let formatter = HelpFormatter(chain: parser.chain(for: path), width: 80)
            for option in formatter.visibleOptions() {
                let name = "\(path.joined(separator: " ")) \(formatter.optionName(option, alignLong: false))"
                #expect(!option.help.contains("repeatable"), "\(name): its help says it itself: \(option.help)")
                let shown = formatter.optionHelp(option).components(separatedBy: "(repeatable)").count - 1
                #expect(shown == (option.isRepeatable ? 1 : 0), "\(name): \(formatter.optionHelp(option))")
            }
        }
    }
}
