@testable import CastScanCLI
import Foundation
import Testing

/// Mistakes on the command line, help, and input files that cannot be read.
@Suite("cast-scan usage errors and bad input, end to end")
struct EndToEndUsageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// The first line of standard error, exactly.
        var message: String
        /// The help the second line points to.
        var help = "cast-scan --help"
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["--jsn"], message: "unknown option '--jsn' (did you mean '--json'?)"),
        Case(
            arguments: ["--permission", "maybe"],
            message: "--permission must be one of granted, denied, undetermined (got 'maybe')"),
        Case(
            arguments: ["--timeout", "abc"],
            message: "--timeout must be a number of seconds from 0.1 to 3600 (got 'abc')"),
        Case(arguments: ["-4", "-6"], message: "'-4' and '-6' cannot be used together"),
        Case(
            arguments: ["--app-id", "zz!"],
            message: "--app-id must be a hexadecimal receiver app ID such as CC1AD845 (got 'zz!')"),
        Case(
            arguments: ["--app-id", "\u{1B}[31mzz"],
            message: "--app-id must be a hexadecimal receiver app ID such as CC1AD845 (got '\\e[31mzz')"),
        Case(arguments: ["--backend", "hosts"], message: "--backend must be given with --host ADDRESS (got 'hosts')"),
        Case(
            arguments: ["--host", "999.1.1.1"],
            message:
                "--host must be an IPv4 or IPv6 address or a host name that resolves (\"999.1.1.1\" is not a valid IPv4 or IPv6 address) (got '999.1.1.1')"
        ),
        Case(
            arguments: ["--host", "10.0.0.1", "--host-interval", "0"],
            message: "--host-interval must be a number of seconds from 1 to 86400 (got '0')"),
        Case(arguments: ["frobnicate"], message: "unknown subcommand 'frobnicate'"),
        Case(arguments: ["watc"], message: "unknown subcommand 'watc' (did you mean 'watch'?)"),
        Case(
            arguments: ["advise", "--sdk", "four"], message: "--sdk must be a version such as 4.8.3 (got 'four')",
            help: "cast-scan advise --help"),
    ]

    @Test(
        "a usage error exits 64 with one message line and a pointer to help on stderr, nothing on stdout",
        arguments: cases)
    func usageError(_ usage: Case) async throws {
        let directory = try TestDirectory()
        // --state goes last: an error earlier on the line must win, and nothing is written.
        let needsState = usage.arguments.first.map { !["frobnicate", "watc", "advise"].contains($0) } ?? true
        let state = directory.path("state.json")
        let result = try await CastScanProcess.run(usage.arguments + (needsState ? ["--state", state] : []))
        #expect(result.exitCode == ExitCode.usage.rawValue, "\(result)")
        #expect(result.stdoutData.isEmpty, "\(result)")
        #expect(result.stderrLines == ["cast-scan: \(usage.message)", "Run '\(usage.help)' for usage."], "\(result)")
        #expect(!result.stderrData.contains(0x1B), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: state), "a usage error must not touch the state file")
    }

    @Test(
        "--help and watch --help print help on stdout and exit 0",
        arguments: [["--help"], ["-h"], ["watch", "--help"]])
    func help(_ arguments: [String]) async throws {
        let result = try await CastScanProcess.run(arguments)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first?.hasPrefix("OVERVIEW: ") == true, "\(result)")
        let usage =
            arguments.first == "watch"
            ? "USAGE: cast-scan watch [<options>]" : "USAGE: cast-scan [<options>] [<subcommand>]"
        #expect(lines.contains(usage), "\(result)")
        for line in lines {
            #expect(DisplayWidth.width(of: line) <= 80, "help line wider than 80 columns: \(line)")
        }
        if arguments.first == "watch" {
            #expect(result.stdout.contains("--jsonl"))
            #expect(result.stdout.contains("--replay <FILE>"))
        } else {
            for subcommand in ["watch", "plist", "advise", "simulate", "doctor"] {
                #expect(lines.contains { $0.hasPrefix("  \(subcommand) ") }, "\(subcommand) missing from help")
            }
            // Every option says "(repeatable)" at most once.
            #expect(!result.stdout.contains("(repeatable), e.g. CC1AD845 (repeatable)"), "\(result)")
            // The exit-status paragraph is wrapped greedily: no line could have taken the next word.
            let paragraph = Array(lines.drop { !$0.hasPrefix("Exit status:") })
            #expect(!paragraph.isEmpty, "\(result)")
            for (line, next) in zip(paragraph, paragraph.dropFirst()) {
                let word = next.split(separator: " ").first.map(String.init) ?? ""
                #expect(
                    DisplayWidth.width(of: line) + 1 + DisplayWidth.width(of: word) > 80,
                    "badly wrapped help: '\(line)' could hold '\(word)'")
            }
        }
    }

    @Test("a replay file with an unknown event kind exits 65 naming the file and the field")
    func badReplay() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run([
            "--replay", FixturePaths.badReplay, "--state", directory.path("s.json"),
        ])
        #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
        #expect(result.stdoutData.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("bad-unknown-kind.json"), "\(result)")
        #expect(result.stderr.contains("events[1].kind"), "\(result)")
        #expect(result.stderr.contains("teleported"), "\(result)")
    }

    @Test("a missing or malformed replay file exits 65", arguments: ["missing", "not-json", "backwards"])
    func unreadableReplay(_ kind: String) async throws {
        let directory = try TestDirectory()
        let path: String
        switch kind {
        case "missing": path = directory.path("nowhere.json")
        case "not-json": path = try directory.write("broken.json", "{\"version\": 1, \"events\": [")
        default:
            path = try directory.write(
                "backwards.json",
                """
                {"version": 1, "events": [{"at": 1.0, "kind": "state", "state": "running"},
                                          {"at": 0.5, "kind": "allForNow", "browseType": "_googlecast._tcp"}]}
                """)
        }
        for watch in [false, true] {
            let arguments =
                watch ? ["watch", "--replay", path] : ["--replay", path, "--state", directory.path("s.json")]
            let result = try await CastScanProcess.run(arguments)
            #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
            #expect(result.stdoutData.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("cast-scan: "), "\(result)")
            #expect(result.stderr.contains(URL(fileURLWithPath: path).lastPathComponent), "\(result)")
        }
    }
}
