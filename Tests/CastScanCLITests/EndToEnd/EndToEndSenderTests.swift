import Foundation
import Testing

/// The simulated sender app beside the list: iOS start flags, the local-network permission and
/// the state file that remembers "discovery has started once".
@Suite("cast-scan simulated sender, end to end")
struct EndToEndSenderTests {
    static func list(_ extra: [String], state: String) async throws -> ProcessResult {
        try await CastScanProcess.run(["--replay", FixturePaths.livingRoom, "--state", state] + extra)
    }

    static func stateJSON(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("iOS 17 first launch: the app sees nothing and the footer says what the network has and suggests --tap")
    func firstLaunch() async throws {
        let directory = try TestDirectory()
        let result = try await Self.list(["--ios", "17"], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stdoutLines.first?.hasPrefix("Sender: iOS 17.0, Cast SDK 4.8.3, just launched") == true, "\(result)")
        #expect(result.stdout.contains("discovery: not running (never started)"), "\(result)")
        #expect(TableLayout(output: result.stdout) == nil, "no device is visible, so no table\n\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices on the network"), "\(result)")
        #expect(result.stdoutLines.last?.contains("--tap") == true, "\(result)")
        #expect(try Self.stateJSON(directory.path("state.json"))["discoveryHasStartedOnce"] as? Bool == false)
    }

    @Test("iOS 17 after a tap with the permission granted: the app sees every device")
    func tapGranted() async throws {
        let directory = try TestDirectory()
        let result = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "granted"], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines.first?.contains("after a Cast button tap") == true, "\(result)")
        #expect(result.stdout.contains("local network: granted"), "\(result)")
        #expect(TableLayout(output: result.stdout)?.rows.count == 4, "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("4 devices (") == true, "\(result)")

        let json = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "granted", "--json"],
            state: directory.path("other.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        #expect(root["visibleDeviceCount"] as? Int == 4)
        let sender = try #require(root["sender"] as? [String: Any])
        #expect(sender["platform"] as? String == "iOS 17.0")
        let step = try #require(sender["step"] as? [String: Any])
        #expect(step["localNetworkPermission"] as? String == "granted")
        #expect(step["discoveryRunning"] as? Bool == true)
    }

    @Test("permission denied: the app sees nothing and the footer points to Settings")
    func denied() async throws {
        let directory = try TestDirectory()
        let result = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "denied"], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("local network: denied"), "\(result)")
        #expect(TableLayout(output: result.stdout) == nil, "\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices"), "\(result)")
        #expect(result.stdoutLines.last?.contains("Settings") == true, "\(result)")

        let json = try await Self.list(
            ["--ios", "17", "--permission", "denied", "--json"], state: directory.path("other.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        #expect(root["visibleDeviceCount"] as? Int == 0)
        #expect((root["devices"] as? [Any])?.count == 4)
    }

    @Test("the state file remembers that discovery has started once, and the permission, across runs")
    func statePersists() async throws {
        let directory = try TestDirectory()
        let state = directory.path("nested/dir/state.json")

        let first = try await Self.list(["--ios", "17"], state: state)
        #expect(first.exitCode == 0, "\(first)")
        #expect(first.stdout.contains("discovery: not running (never started)"), "\(first)")

        let tapped = try await Self.list(["--ios", "17", "--tap", "--permission", "granted"], state: state)
        #expect(tapped.exitCode == 0, "\(tapped)")
        let saved = try Self.stateJSON(state)
        #expect(saved["discoveryHasStartedOnce"] as? Bool == true, "\(saved)")
        #expect(saved["localNetworkPermission"] as? String == "granted", "\(saved)")

        // The next launch needs no tap and no --permission: both come from the state file.
        let relaunch = try await Self.list(["--ios", "17"], state: state)
        #expect(relaunch.exitCode == 0, "\(relaunch)")
        #expect(relaunch.stdout.contains("discovery: running"), "\(relaunch)")
        #expect(!relaunch.stdout.contains("never started"), "\(relaunch)")
        #expect(relaunch.stdout.contains("local network: granted"), "\(relaunch)")
        #expect(TableLayout(output: relaunch.stdout)?.rows.count == 4, "\(relaunch)")
    }

    @Test("a corrupt state file is a warning on stderr, the run goes on from a fresh install and repairs it")
    func corruptState() async throws {
        let directory = try TestDirectory()
        let state = try directory.write("state.json", "{\"discoveryHasStartedOnce\": tru")
        let result = try await Self.list(["--ios", "17"], state: state)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("cast-scan: state file \"\(state)\" is corrupt"), "\(result)")
        #expect(result.stderr.contains("corrupt"), "\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices"), "\(result)")
        #expect(try Self.stateJSON(state)["discoveryHasStartedOnce"] as? Bool == false)

        // In JSON the warning is part of the document, and stdout stays one JSON value.
        try directory.write("state.json", "not json at all")
        let json = try await Self.list(["--json"], state: state)
        #expect(json.exitCode == 0, "\(json)")
        let root = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        let warnings = (root["sender"] as? [String: Any])?["warnings"] as? [String]
        #expect(warnings?.count == 1, "\(json)")
    }

    @Test("a state path that cannot be written is a warning, not a failure")
    func unwritableState() async throws {
        let directory = try TestDirectory()
        let blocker = try directory.write("file", "a file, not a directory")
        let result = try await Self.list([], state: blocker + "/state.json")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("state file"), "\(result)")
        #expect(TableLayout(output: result.stdout)?.rows.count == 4, "\(result)")
    }

    @Test(
        "iOS 13 with SDK 4.8.1 or later is refused before any scan, as advise and simulate refuse it",
        arguments: [
            ["--ios", "13.7", "--sdk", "4.8.3"], ["--ios", "13.7"], ["--ios", "13", "--sdk", "4.8.1", "--json"],
        ])
    func iOS13NeedsOlderSDK(_ options: [String]) async throws {
        let directory = try TestDirectory()
        let result = try await Self.list(options, state: directory.path("state.json"))
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("needs iOS 14 or later"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("state.json")), "nothing ran")
    }

    @Test("--plist without the app's service type: the app finds nothing, and the header names the entry to add")
    func plistMissingAppService() async throws {
        let directory = try TestDirectory()
        let plist = FixturePaths.fixture("plists/missing-app-service.plist")
        let result = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "granted", "--plist", plist], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stdout.contains("blocked: iOS refuses the browse for _CC1AD845._googlecast._tcp (NoAuth, -72008)"),
            "\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices"), "\(result)")
        #expect(result.stdoutLines.last?.contains("<string>_CC1AD845._googlecast._tcp</string>") == true, "\(result)")

        let json = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "granted", "--plist", plist, "--json"],
            state: directory.path("j.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        let step = try #require((root["sender"] as? [String: Any])?["step"] as? [String: Any])
        #expect(step["blockedBrowses"] as? [String] == ["_CC1AD845._googlecast._tcp"])
        #expect(root["visibleDeviceCount"] as? Int == 0)

        let good = try await Self.list(
            ["--ios", "17", "--tap", "--permission", "granted", "--plist", FixturePaths.fixture("plists/good.plist")],
            state: directory.path("good.json"))
        #expect(!good.stdout.contains("blocked"), "\(good)")
        #expect(TableLayout(output: good.stdout)?.rows.count == 4, "\(good)")
    }

    @Test("--plist: the prompt shows the plist's NSLocalNetworkUsageDescription; an unreadable plist exits 65")
    func plistPrompt() async throws {
        let directory = try TestDirectory()
        let prompt = try await Self.list(
            ["--ios", "17", "--tap", "--plist", FixturePaths.fixture("plists/missing-app-service.plist")],
            state: directory.path("state.json"))
        #expect(prompt.exitCode == 0, "\(prompt)")
        #expect(prompt.stdout.contains("screen: localNetworkPrompt"), "\(prompt)")
        #expect(prompt.stdout.contains("discover Cast-enabled devices"), "the plist's text\n\(prompt)")
        let bad = try await Self.list(
            ["--ios", "17", "--plist", FixturePaths.fixture("plists/not-a-plist.plist")],
            state: directory.path("b.json"))
        #expect(bad.exitCode == 65, "\(bad)")
        #expect(bad.stdout.isEmpty && !bad.stderr.isEmpty, "\(bad)")
    }

    @Test("--xcode and --app-dialogs describe the app: Xcode in the header, the app's own dialog on a tap")
    func xcodeAndAppDialogs() async throws {
        let directory = try TestDirectory()
        let xcode = try await Self.list(
            ["--ios", "13.5", "--sdk", "4.4.3", "--xcode", "11.7", "--no-first-tap"], state: directory.path("x.json"))
        #expect(xcode.exitCode == 0, "\(xcode)")
        #expect(xcode.stdoutLines.first?.contains("built with Xcode 11.7") == true, "\(xcode)")
        #expect(xcode.stdout.contains("location"), "the Cast button needs location permission\n\(xcode)")
        let dialogs = try await Self.list(
            ["--ios", "17", "--disable-autostart", "--tap", "--app-dialogs"], state: directory.path("d.json"))
        #expect(dialogs.exitCode == 0, "\(dialogs)")
        #expect(dialogs.stdout.contains("screen: appLocalNetworkDialog"), "\(dialogs)")
        let old = try await Self.list(
            ["--ios", "17", "--sdk", "4.5.3", "--app-dialogs"], state: directory.path("o.json"))
        #expect(old.exitCode == 64, "GCKUICastButtonDelegate needs 4.6.0\n\(old)")
    }
}
