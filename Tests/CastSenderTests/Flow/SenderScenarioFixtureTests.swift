import CastDiscovery
import CastSender
import Foundation
import Testing

@Suite("Sender scenarios (Fixtures/scenarios)")
struct SenderScenarioFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/scenarios")

    /// The scenario files; a folder that cannot be read, or holds none, fails the tests that take
    /// them instead of running zero cases.
    static func fileNames() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        guard !names.isEmpty else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory.path])
        }
        return names
    }

    static func loadAll() async throws -> [SenderScenario] {
        var scenarios: [SenderScenario] = []
        for name in try fileNames() {
            scenarios.append(try await SenderScenario.load(contentsOf: directory.appendingPathComponent(name)))
        }
        return scenarios
    }

    @Test("every scenario file runs and matches its expectations", arguments: try fileNames())
    func scenario(name: String) async throws {
        let scenario = try await SenderScenario.load(contentsOf: Self.directory.appendingPathComponent(name))
        var seen = 0
        let run = scenario.run { index, _, _ in
            #expect(index == seen)
            seen += 1
        }
        if let mismatch = run.mismatch { Issue.record("\(mismatch)") }
        #expect(run.steps.count == scenario.steps.count)
        #expect(scenario.steps.contains { !$0.expectation.isEmpty }, "a scenario checks something")
    }

    @Test("the files cover every flag combination on iOS 13 and 14+, both answers, Settings, custom picker, quirks")
    func coverage() async throws {
        let scenarios = try await Self.loadAll()
        #expect(scenarios.count >= 12)
        struct Combination: Hashable {
            var permissionPlatform: Bool
            var autostartDisabled: Bool
            var firstTapFlag: Bool
        }
        var combinations = Set<Combination>()
        for scenario in scenarios {
            let options = scenario.configuration.options
            if case .iOS = options.platform {
                combinations.insert(
                    Combination(
                        permissionPlatform: options.platform.requiresLocalNetworkPermission,
                        autostartDisabled: options.disableDiscoveryAutostart,
                        firstTapFlag: options.startDiscoveryAfterFirstTapOnCastButton))
            }
        }
        #expect(combinations.count == 8, "missing: \(combinations)")

        let inputs = scenarios.flatMap { $0.steps.map(\.input) }
        #expect(inputs.contains(.promptAnswered(granted: true)))
        #expect(inputs.contains(.promptAnswered(granted: false)))
        // A denial, then access turned back on in Settings.
        let reEnabled = scenarios.contains { scenario in
            let list = scenario.steps.map(\.input)
            guard let denial = list.firstIndex(of: .promptAnswered(granted: false)) else { return false }
            return list[denial...].contains(.settingsChanged(granted: true))
        }
        #expect(reEnabled)
        #expect(scenarios.contains { $0.configuration.picker == .custom })
        let quirks = Set(scenarios.flatMap { $0.run().steps.flatMap(\.quirks) })
        #expect(
            quirks == Set(SenderQuirk.allCases), "quirks never shown: \(Set(SenderQuirk.allCases).subtracting(quirks))")
        let screens = Set(scenarios.flatMap { $0.run().steps.map(\.screen) })
        #expect(
            screens == Set(SenderScreen.allCases),
            "screens never shown: \(Set(SenderScreen.allCases).subtracting(screens))")
        let states = Set(scenarios.flatMap { $0.run().steps.map(\.castState) })
        #expect(states == Set(CastState.allCases))
    }

    @Test("a wrong expectation is reported with the step, the field and both values")
    func mismatch() async throws {
        let json = """
            {"version": 1, "app": {"platform": "iOS 14.5", "sdk": "4.8.3"},
             "steps": [{"input": "appLaunched", "expect": {"screen": "none"}},
                       {"input": "castButtonTapped", "expect": {"screen": "devicePicker", "castState": "connected",
                                                                 "discoveryRunning": false}},
                       {"input": "interstitialDismissed", "expect": {"screen": "none"}}]}
            """
        let scenario = try await SenderScenario(parsing: Data(json.utf8), file: "inline.json")
        let run = scenario.run()
        let mismatch = try #require(run.mismatch)
        #expect(mismatch.stepIndex == 1)
        #expect(run.steps.count == 2, "stops at the first mismatch")
        #expect(mismatch.differences.map(\.field) == ["screen", "castState"])
        #expect(mismatch.differences[0].expected == "devicePicker")
        #expect(mismatch.differences[0].actual == "sdkInterstitial")
        let text = mismatch.description
        #expect(text.hasPrefix("inline.json: steps[1] (castButtonTapped): 2 field(s) differ"))
        #expect(text.contains("screen: expected devicePicker, got sdkInterstitial"))
        #expect(text.contains("castState: expected connected, got noDevicesAvailable"))
        #expect(text.contains("actual snapshot:"))
    }
}
