import CastSender
import Foundation
import Testing

@Suite("Sender scenario validation")
struct SenderScenarioErrorTests {
    struct Bad: Sendable, CustomStringConvertible {
        var json: String
        var location: String
        var message: String
        var description: String { location.isEmpty ? message : location }
    }

    static let app = #""app": {"platform": "iOS 14.5", "sdk": "4.8.3"}"#

    static func steps(_ steps: String) -> String { #"{"version": 1, \#(app), "steps": [\#(steps)]}"# }

    static let cases: [Bad] = [
        Bad(json: "{", location: "", message: "not valid JSON"),
        Bad(json: "[]", location: "", message: "expected an object, found an array"),
        Bad(
            json: #"{"version": 2, \#(app), "steps": [{"input": "appLaunched"}]}"#, location: "version",
            message: "expected 1, found a number"),
        Bad(json: #"{"version": 1, \#(app)}"#, location: "steps", message: "missing required field"),
        Bad(json: #"{"version": 1, \#(app), "steps": []}"#, location: "steps", message: "at least one step"),
        Bad(
            json: #"{"version": 1, \#(app), "steps": [{"input": "appLaunched"}], "extra": 1}"#, location: "extra",
            message: "unknown field \"extra\""),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "Android 14", "sdk": "4.8.3"}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app.platform", message: "not \"linux\" or an iOS version"),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "iOS 14", "sdk": "4.8.x"}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app.sdk", message: "invalid version \"4.8.x\""),
        Bad(
            json: #"{"version": 1, "app": {"platform": "iOS 14", "sdk": 4.8}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app.sdk", message: "expected a string, found a number"),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "iOS 13", "sdk": "4.8.3"}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app", message: "needs iOS 14 or later"),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "iOS 13", "sdk": "4.4.0", "noBluetoothVariant": true}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app", message: "no-bluetooth variant exists from Cast SDK 4.4.3"),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "iOS 14", "sdk": "4.8.3", "picker": "mine"}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app.picker", message: "unknown picker \"mine\"; expected one of: sdkCastButton, custom"),
        Bad(
            json:
                #"{"version": 1, "app": {"platform": "iOS 14", "sdk": "4.8.3", "disableDiscoveryAutostart": 1}, "steps": [{"input": "appLaunched"}]}"#,
            location: "app.disableDiscoveryAutostart", message: "expected true or false, found a number"),
        Bad(
            json:
                #"{"version": 1, \#(app), "stored": {"localNetworkPermission": "maybe"}, "steps": [{"input": "appLaunched"}]}"#,
            location: "stored.localNetworkPermission", message: "unknown permission \"maybe\""),
        Bad(
            json: steps(#"{"input": "appLaunched"}, {"input": "launch"}"#), location: "steps[1].input",
            message: "unknown input \"launch\"; expected one of: appLaunched"),
        Bad(json: steps(#"{"input": 3}"#), location: "steps[0].input", message: "expected a string, found a number"),
        Bad(json: steps(#"{"expect": {}}"#), location: "steps[0].input", message: "missing required field"),
        Bad(json: steps(#""appLaunched""#), location: "steps[0]", message: "expected an object, found a string"),
        Bad(
            json: steps(#"{"input": "promptAnswered"}"#), location: "steps[0] (promptAnswered).granted",
            message: "missing required field"),
        Bad(
            json: steps(#"{"input": "promptAnswered", "granted": "yes"}"#),
            location: "steps[0] (promptAnswered).granted",
            message: "expected true or false, found a string"),
        Bad(
            json: steps(#"{"input": "appLaunched", "granted": true}"#), location: "steps[0] (appLaunched).granted",
            message: "unknown field \"granted\""),
        Bad(
            json: steps(#"{"input": "wifiChanged", "connected": null}"#), location: "steps[0] (wifiChanged).connected",
            message: "expected true or false, found null"),
        Bad(
            json: steps(#"{"input": "deviceListChanged"}"#), location: "steps[0] (deviceListChanged)",
            message: "expected \"devices\" or \"replay\""),
        Bad(
            json: steps(#"{"input": "deviceListChanged", "devices": [], "replay": "x.json"}"#),
            location: "steps[0] (deviceListChanged)", message: "not both"),
        Bad(
            json: steps(#"{"input": "deviceListChanged", "devices": [{"id": "x"}]}"#),
            location: "steps[0] (deviceListChanged).devices[0].name", message: "missing required field"),
        Bad(
            json: steps(#"{"input": "deviceListChanged", "devices": [{"name": "A", "ip": "1"}]}"#),
            location: "steps[0] (deviceListChanged).devices[0].ip", message: "unknown field"),
        Bad(
            json: steps(#"{"input": "deviceListChanged", "replay": "no-such-file.json"}"#),
            location: "steps[0] (deviceListChanged).replay", message: "no-such-file.json"),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"screen": "home"}}"#),
            location: "steps[0] (appLaunched).expect.screen", message: "unknown screen \"home\""),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"castState": 1}}"#),
            location: "steps[0] (appLaunched).expect.castState", message: "expected a string, found a number"),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"castState": "idle"}}"#),
            location: "steps[0] (appLaunched).expect.castState",
            message:
                "unknown cast state \"idle\"; expected one of: noDevicesAvailable, notConnected, connecting, connected"),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"quirks": ["bug"]}}"#),
            location: "steps[0] (appLaunched).expect.quirks[0]", message: "unknown quirk \"bug\""),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"visibleDevices": [1]}}"#),
            location: "steps[0] (appLaunched).expect.visibleDevices[0]", message: "expected a string"),
        Bad(
            json: steps(#"{"input": "appLaunched", "expect": {"castButton": true}}"#),
            location: "steps[0] (appLaunched).expect.castButton", message: "unknown field \"castButton\""),
        Bad(
            json: steps(
                #"{"input": "deviceSelected", "device": "\u001B[31mred"}"#.replacingOccurrences(
                    of: "\"device\"", with: "\"devic\"")),
            location: "steps[0] (deviceSelected).devic", message: "unknown field \"devic\""),
    ]

    @Test("a bad file is an error naming the file, the place and the problem", arguments: cases)
    func bad(_ bad: Bad) async {
        do {
            _ = try await SenderScenario(
                parsing: Data(bad.json.utf8), file: "bad.json", directory: URL(fileURLWithPath: "/nonexistent"))
            Issue.record("accepted: \(bad.json)")
        } catch {
            #expect(error.file == "bad.json")
            #expect(error.location == bad.location, "\(error)")
            #expect(error.message.contains(bad.message), "\(error)")
            #expect(error.description.hasPrefix(bad.location.isEmpty ? "bad.json: " : "bad.json: \(bad.location): "))
        }
    }

    @Test(
        "every input name parses as a step, with its arguments, into an input of that name",
        arguments: SenderFlowInput.Name.allCases)
    func everyInput(_ kind: SenderFlowInput.Name) async throws {
        let values: [String: String] = [
            "granted": "true", "connected": "false", "device": #""Living Room TV""#, "devices": "[]",
        ]
        // deviceListChanged takes devices or replay, not both.
        let arguments = kind == .deviceListChanged ? ["devices"] : kind.arguments
        let fields = arguments.map { #", "\#($0)": \#(values[$0]!)"# }.joined()
        let json = Self.steps(#"{"input": "\#(kind.rawValue)"\#(fields)}"#)
        let scenario = try await SenderScenario(parsing: Data(json.utf8), file: "t.json")
        #expect(scenario.steps.first?.input.kind == kind)
        #expect(scenario.steps.first?.input.name == kind.rawValue)
        #expect(SenderFlowInput.names.filter { $0 == kind.rawValue }.count == 1)
    }

    @Test("a missing or oversized file is an error naming it")
    func files() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.json")
        await #expect(throws: SenderScenarioError.self) { try await SenderScenario.load(contentsOf: missing) }
        let huge = directory.appendingPathComponent("huge.json")
        try Data(repeating: UInt8(ascii: " "), count: SenderScenario.maximumFileSize + 1).write(to: huge)
        do {
            _ = try await SenderScenario.load(contentsOf: huge)
            Issue.record("accepted a huge file")
        } catch {
            #expect(error.file == huge.path)
            #expect(error.message.contains("bytes"))
        }
    }

    @Test("control characters in a bad value are escaped in the message")
    func escaped() async {
        let json = Self.steps(#"{"input": "la\u001B[2Junch"}"#)
        do {
            _ = try await SenderScenario(parsing: Data(json.utf8), file: "bad.json")
            Issue.record("accepted")
        } catch {
            #expect(!error.description.unicodeScalars.contains("\u{1B}"))
            #expect(error.description.contains(#"\u{1B}"#))
        }
    }
}
