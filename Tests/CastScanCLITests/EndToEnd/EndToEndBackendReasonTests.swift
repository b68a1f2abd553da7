@testable import CastScanCLI
import Foundation
import Testing

/// Why a backend was chosen reads well where it is shown: inside parentheses in the listing's
/// header (`discovery backend: NAME (REASON)`), after a colon in `watch` and `doctor`, alone
/// in JSON. A reason with parentheses of its own would nest them there.
@Suite("cast-scan, the backend's reason")
struct EndToEndBackendReasonTests {
    /// Whether `text` has a parenthesis inside another.
    static func nestsParentheses(_ text: String) -> Bool {
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth > 1 { return true }
        }
        return false
    }

    @Test("the header of a listing with --backend hosts: 'asked for with --backend hosts', no nested parentheses")
    func header() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run(
            ["--backend", "hosts", "--host", "127.0.0.1", "--timeout", "0.5", "--state", directory.path("state.json")])
        #expect(result.exitCode == 0, "\(result)")
        let line = try #require(result.stdoutLines.first { $0.hasPrefix("  discovery backend: ") }, "\(result)")
        #expect(line == "  discovery backend: hosts (asked for with --backend hosts: only 1 known host)", "\(result)")
        #expect(!Self.nestsParentheses(line), "\(line)")
    }

    @Test("scan.backendReason in JSON is the same words")
    func json() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run(
            [
                "--backend", "hosts", "--host", "127.0.0.1", "--timeout", "0.5", "--json", "--state",
                directory.path("state.json"),
            ])
        #expect(result.exitCode == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        let scan = try #require(json?["scan"] as? [String: Any], "\(result)")
        #expect(scan["backendReason"] as? String == "asked for with --backend hosts: only 1 known host", "\(result)")
    }

    @Test(
        "every backend asked for by name says so without parentheses of its own",
        arguments: [
            (["--backend", "mdns"], "mdns", "asked for with --backend mdns"),
            (
                ["--backend", "mdns", "--host", "127.0.0.1"], "mdns+hosts",
                "asked for with --backend mdns; and 1 known host asked directly with --host"
            ),
            (
                ["--backend", "hosts", "--host", "127.0.0.1", "--host", "::1"], "hosts",
                "asked for with --backend hosts: only 2 known hosts"
            ),
        ])
    func reasons(arguments: [String], name: String, reason: String) throws {
        // Choosing builds the backends and sends nothing.
        let parsed = try ArgumentParser(command: CastScan.root.declarationTree).parse(["cast-scan"] + arguments)
        let selection = try ScanOptions(parsed).backend(live: false)
        #expect(selection.name == name)
        #expect(selection.reason == reason)
        #expect(
            !Self.nestsParentheses("discovery backend: \(selection.name) (\(selection.reason))"), "\(selection.reason)")
    }
}
