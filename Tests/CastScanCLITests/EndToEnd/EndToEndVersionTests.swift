@testable import CastScanCLI
import Foundation
import Testing

@Suite("cast-scan --version and the generated references")
struct EndToEndVersionTests {
    @Test("--version prints the version and the commit, exits 0; the JSON and doctor carry the same string")
    func version() async throws {
        let result = try await CastScanProcess.run(["--version"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == "cast-scan \(BuildInfo.description)\n")
        let list = try await CastScanProcess.run(["--replay", FixturePaths.livingRoom, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [String: Any])
        #expect(object["toolVersion"] as? String == BuildInfo.description)
        #expect(object["tool"] as? String == "cast-scan")
        let sub = try await CastScanProcess.run(["watch", "--version"])
        #expect(sub.exitCode == 64, "only the root takes --version: \(sub)")
    }

    @Test("the man page and completions name every command and every option of its help")
    func generated() async throws {
        let man = try await CastScanProcess.run(["--generate-man-page"])
        let bash = try await CastScanProcess.run(["--generate-completion", "bash"])
        #expect(man.exitCode == 0 && bash.exitCode == 0)
        for entry in CommandReference(root: CastScan.root.declarationTree).entries {
            #expect(
                man.stdout.contains(".SS \"" + ManPage.escape(entry.path.joined(separator: " ")) + "\""),
                "\(entry.path)")
            #expect(bash.stdout.contains("\"\(entry.path.joined(separator: " "))\")"), "\(entry.path)")
            for option in entry.options {
                #expect(man.stdout.contains(ManPage.optionTitle(option)), "\(entry.path) \(option.displayName)")
                for name in ShellCompletion.names(option) { #expect(bash.stdout.contains(name), "\(name)") }
            }
        }
        for code in ExitCode.allCases { #expect(man.stdout.contains("\\fB\(code.rawValue)\\fR")) }
        let unknown = try await CastScanProcess.run(["--generate-completion", "fish"])
        #expect(unknown.exitCode == 64, "\(unknown)")
    }
}
