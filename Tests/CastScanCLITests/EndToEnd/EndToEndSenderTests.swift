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
        #expect(result.stdoutLines.first?.hasPrefix("Sender: iOS 17.0, Cast SDK 4.8.3, just launched") == true, "\(result)")
        #expect(result.stdout.contains("discovery: not running (never started)"), "\(result)")
        #expect(TableLayout(output: result.stdout) == nil, "no device is visible, so no table\n\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices on the network"), "\(result)")
        #expect(result.stdoutLines.last?.contains("--tap") == true, "\(result)")
        #expect(try Self.stateJSON(directory.path("state.json"))["discoveryHasStartedOnce"] as? Bool == false)
    }

    @Test("iOS 17 after a tap with the permission granted: the app sees every device")
    func tapGranted() async throws {
        let directory = try TestDirectory()
        let result = try await Self.list(["--ios", "17", "--tap", "--permission", "granted"], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines.first?.contains("after a Cast button tap") == true, "\(result)")
        #expect(result.stdout.contains("local network: granted"), "\(result)")
        #expect(TableLayout(output: result.stdout)?.rows.count == 4, "\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("4 devices (") == true, "\(result)")

        let json = try await Self.list(["--ios", "17", "--tap", "--permission", "granted", "--json"],
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
        let result = try await Self.list(["--ios", "17", "--tap", "--permission", "denied"], state: directory.path("state.json"))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("local network: denied"), "\(result)")
        #expect(TableLayout(output: result.stdout) == nil, "\(result)")
        #expect(result.stdout.contains("The app sees 0 of the 4 Cast devices"), "\(result)")
        #expect(result.stdoutLines.last?.contains("Settings") == true, "\(result)")

        let json = try await Self.list(["--ios", "17", "--permission", "denied", "--json"], state: directory.path("other.json"))
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
}
