@testable import CastScanCLI
import Foundation
import Testing

/// `plist check`, `plist snippet`, `advise` and `simulate`, run as a process.
@Suite("cast-scan plist, advise and simulate, end to end")
struct EndToEndSubcommandTests {
    @Test("plist check: a good Info.plist exits 0 with no error finding")
    func plistGood() async throws {
        let result = try await CastScanProcess.run(["plist", "check", FixturePaths.fixture("plists/good.plist")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(!result.stdout.contains("error ["), "\(result)")

        let complete = try await CastScanProcess.run(
            ["plist", "check", FixturePaths.fixture("plists/good.plist"), "--sdk", "4.8.3", "--ios", "14"])
        #expect(complete.exitCode == 0, "\(complete)")
        #expect(complete.stdout.contains("no findings"), "\(complete)")
    }

    @Test("plist check: a plist missing the Cast keys exits 2 with the findings and the corrected entries on stdout")
    func plistBad() async throws {
        let result = try await CastScanProcess.run([
            "plist", "check", FixturePaths.fixture("plists/missing-keys.plist"),
        ])
        #expect(result.exitCode == ExitCode.checkFailed.rawValue, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("error [missing-bonjour-services]"), "\(result)")
        #expect(result.stdout.contains("error [missing-local-network-usage-description]"), "\(result)")
        #expect(result.stdout.contains("  fix: "), "\(result)")
        #expect(result.stdout.contains("Corrected entries:"), "\(result)")
        #expect(result.stdout.contains("<string>_CC1AD845._googlecast._tcp</string>"), "\(result)")

        let json = try await CastScanProcess.run([
            "plist", "check", FixturePaths.fixture("plists/missing-keys.plist"), "--json",
        ])
        #expect(json.exitCode == ExitCode.checkFailed.rawValue, "\(json)")
        #expect(try JSONSerialization.jsonObject(with: json.stdoutData) is [String: Any], "\(json)")
    }

    @Test("plist check: hostile plist entries are findings, printed without control characters")
    func plistHostile() async throws {
        let result = try await CastScanProcess.run([
            "plist", "check", FixturePaths.fixture("plists/hostile-entries.plist"),
        ])
        #expect(result.exitCode == ExitCode.checkFailed.rawValue, "\(result)")
        let unsafe = HostileOutput.unsafeScalars(in: result.stdout, allowingTabs: true)
        #expect(unsafe.isEmpty, "\(unsafe)\n\(result)")
        #expect(result.stdout.contains("error [bonjour-service-not-string]"), "\(result)")
    }

    @Test(
        "plist check: a file that is not a plist exits 65 with the reason on stderr",
        arguments: [
            "plists/not-a-plist.plist", "plists/truncated.plist", "plists/array-root.plist", "plists/nowhere.plist",
        ])
    func plistUnreadable(_ fixture: String) async throws {
        let result = try await CastScanProcess.run(["plist", "check", FixturePaths.fixture(fixture)])
        #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
        #expect(result.stdoutData.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("cast-scan: cannot check "), "\(result)")
    }

    @Test("plist check without a file is a usage error")
    func plistCheckMissingFile() async throws {
        let result = try await CastScanProcess.run(["plist", "check"])
        #expect(result.exitCode == ExitCode.usage.rawValue, "\(result)")
        #expect(result.stdoutData.isEmpty)
        #expect(result.stderrLines.first == "cast-scan: missing argument <FILE>", "\(result)")
    }

    @Test("plist snippet lists the app's service type for NSBonjourServices")
    func plistSnippet() async throws {
        let result = try await CastScanProcess.run(["plist", "snippet", "--app-id", "233637DE"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("<string>_233637DE._googlecast._tcp</string>"), "\(result)")
        #expect(result.stdout.contains("<string>_googlecast._tcp</string>"), "\(result)")
        #expect(result.stdout.contains("<key>NSLocalNetworkUsageDescription</key>"), "\(result)")
        #expect(!result.stdout.contains("_sub"), "\(result)")

        let lowercase = try await CastScanProcess.run(["plist", "snippet", "--app-id", "233637de"])
        #expect(lowercase.stdout.contains("_233637DE._googlecast._tcp"), "\(lowercase)")
    }

    @Test("advise --sdk 4.8.0 --ios 13 warns about the first-tap discovery bug")
    func advise() async throws {
        let result = try await CastScanProcess.run(["advise", "--sdk", "4.8.0", "--ios", "13"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("[first-tap-discovery-bug]"), "\(result)")
        #expect(result.stdout.contains("first tap"), "\(result)")

        let current = try await CastScanProcess.run(["advise", "--sdk", "4.8.3", "--ios", "15"])
        #expect(current.exitCode == 0, "\(current)")
        #expect(!current.stdout.contains("first-tap-discovery-bug"), "\(current)")

        let json = try await CastScanProcess.run(["advise", "--sdk", "4.8.0", "--ios", "13", "--json"])
        let findings = try #require(
            try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]], "\(json)")
        #expect(findings.contains { "\($0["code"] ?? "")" == "first-tap-discovery-bug" }, "\(json)")
    }

    @Test(
        "advise --xcode: the iOS 12 SDK's slower discovery (Xcode 10), location for the button (Xcode 11, SDK < 4.4.4)")
    func adviseXcode() async throws {
        let xcode10 = try await CastScanProcess.run(["advise", "--sdk", "4.4.4", "--xcode", "10.3", "--ios", "13"])
        #expect(xcode10.exitCode == 0, "\(xcode10)")
        #expect(xcode10.stdout.contains("[built-with-ios-12-sdk]"), "\(xcode10)")
        #expect(!xcode10.stdout.contains("cast-button-may-need-location"), "\(xcode10)")
        let xcode11 = try await CastScanProcess.run(["advise", "--sdk", "4.4.3", "--xcode", "11.7", "--ios", "13"])
        #expect(xcode11.stdout.contains("[cast-button-may-need-location]"), "\(xcode11)")
        #expect(xcode11.stdout.contains("location permission"), "\(xcode11)")
        let fixed = try await CastScanProcess.run(["advise", "--sdk", "4.4.4", "--xcode", "11.7", "--ios", "13"])
        #expect(!fixed.stdout.contains("cast-button-may-need-location"), "\(fixed)")
    }

    @Test(
        "advise exits as plist check does: 2 with an error finding (text and JSON), 0 with warnings and notes only",
        arguments: [[String](), ["--json"]])
    func adviseStatus(extra: [String]) async throws {
        // SDK 4.4.0 built with Xcode 12: sdk-too-old-for-xcode, an error.
        let error = try await CastScanProcess.run(["advise", "--sdk", "4.4.0", "--xcode", "12", "--ios", "13"] + extra)
        #expect(error.exitCode == ExitCode.checkFailed.rawValue, "\(error)")
        #expect(error.stderr.isEmpty, "\(error)")
        #expect(error.stdout.contains("sdk-too-old-for-xcode"), "the findings are still printed: \(error)")
        let plist = try await CastScanProcess.run(
            ["plist", "check", FixturePaths.fixture("plists/missing-keys.plist")] + extra)
        #expect(plist.exitCode == error.exitCode, "plist check: \(plist)")

        // SDK 4.8.0: first-tap-discovery-bug (a warning) and sdk-below-recommended (a note).
        let warning = try await CastScanProcess.run(["advise", "--sdk", "4.8.0", "--ios", "14"] + extra)
        #expect(warning.exitCode == 0, "\(warning)")
        #expect(warning.stdout.contains("first-tap-discovery-bug"), "\(warning)")
        #expect(!warning.stdout.contains("error"), "\(warning)")
    }

    @Test("simulate --xcode stands in for the scenario's app.xcode")
    func simulateXcode() async throws {
        let scenario = FixturePaths.fixture("scenarios/ios13-sdk-4.4.3-xcode-11-location.json")
        let asWritten = try await CastScanProcess.run(["simulate", scenario])
        #expect(asWritten.exitCode == 0, "\(asWritten)")
        // Built with Xcode 12 (the iOS 14 SDK) the button needs no location, so the first step's
        // expectation (hidden, needs location) no longer holds.
        let rebuilt = try await CastScanProcess.run(["simulate", "--xcode", "12.5", scenario])
        #expect(rebuilt.exitCode == 2, "\(rebuilt)")
        #expect(rebuilt.stderr.contains("castButtonVisible"), "\(rebuilt)")
        let bad = try await CastScanProcess.run(["simulate", "--xcode", "eleven", scenario])
        #expect(bad.exitCode == 64, "\(bad)")
    }

    @Test("simulate runs every scenario fixture to the end and exits 0")
    func simulateFixtures() async throws {
        let scenarios = FixturePaths.packageRoot.appendingPathComponent("Fixtures/scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count >= 2)
        for file in ["ios14-first-tap-granted.json", "ios14-replay-living-room.json"] {
            #expect(files.contains(file))
            let result = try await CastScanProcess.run(["simulate", scenarios.appendingPathComponent(file).path])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdoutLines.first == "1. appLaunched", "\(result)")
        }
    }

    @Test("simulate exits 2 and says which step differs when an expectation is wrong")
    func simulateMismatch() async throws {
        let directory = try TestDirectory()
        let linux = FixturePaths.fixture("scenarios/linux.json")
        let text = try String(contentsOfFile: linux, encoding: .utf8)
        #expect(text.contains("\"screen\": \"devicePicker\""))
        let wrong = try directory.write(
            "wrong.json",
            text.replacingOccurrences(of: "\"screen\": \"devicePicker\"", with: "\"screen\": \"sdkInterstitial\""))
        let result = try await CastScanProcess.run(["simulate", wrong])
        #expect(result.exitCode == ExitCode.checkFailed.rawValue, "\(result)")
        let first = try #require(result.stderrLines.first)
        #expect(first.hasPrefix("cast-scan: \(wrong): steps[1] (castButtonTapped)"), "\(result)")
        // The explanation keeps its lines, without escaped line breaks.
        #expect(result.stderrLines.contains("  screen: expected sdkInterstitial, got devicePicker"), "\(result)")
        #expect(!result.stderr.contains("\\n"), "\(result)")
    }

    @Test("simulate keeps a device name's line break inside its line")
    func simulateHostileName() async throws {
        let directory = try TestDirectory()
        let text = try String(contentsOfFile: FixturePaths.fixture("scenarios/linux.json"), encoding: .utf8)
        let hostile = text.replacingOccurrences(of: "Kitchen speaker", with: "Kitchen\\nspeaker \\u001b[31mred")
        let path = try directory.write("hostile.json", hostile)
        let result = try await CastScanProcess.run(["simulate", path])
        #expect(result.exitCode == 0, "\(result)")
        #expect(HostileOutput.unsafeScalars(in: result.stdout).isEmpty, "\(result)")
        let devicesLines = result.stdoutLines.filter { $0.hasPrefix("   devices:") }
        #expect(devicesLines.count == 2, "\(result)")
        for line in devicesLines {
            #expect(line.contains("Kitchen\\nspeaker \\u{1B}[31mred"), "\(line)")
        }
        #expect(!result.stdoutLines.contains { $0.hasPrefix("speaker") }, "\(result)")
    }

    @Test("simulate: a missing scenario exits 65, no scenario argument exits 64")
    func simulateBadInput() async throws {
        let directory = try TestDirectory()
        let missing = try await CastScanProcess.run(["simulate", directory.path("none.json")])
        #expect(missing.exitCode == ExitCode.dataError.rawValue, "\(missing)")
        #expect(missing.stdoutData.isEmpty, "\(missing)")

        let absent = try await CastScanProcess.run(["simulate"])
        #expect(absent.exitCode == ExitCode.usage.rawValue, "\(absent)")
        #expect(absent.stdoutData.isEmpty, "\(absent)")
    }
}
