import CastSender
import Foundation
import Testing

@Suite("SenderFlowStore")
struct SenderFlowStoreTests {
    static func withFile(_ text: String?, _ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("discovery.json")
        if let text { try Data(text.utf8).write(to: url) }
        try body(url)
    }

    @Test(
        "reads version 1 and 2 files",
        arguments: [
            (#"{"version":1,"discoveryHasStartedOnce":true}"#, SenderFlowState(discoveryHasStartedOnce: true), 1),
            (#"{"version":1,"discoveryHasStartedOnce":false}"#, SenderFlowState(), 1),
            (
                #"{"version":2,"discoveryHasStartedOnce":true,"localNetworkPermission":"denied","bluetoothPromptAnswered":false}"#,
                SenderFlowState(discoveryHasStartedOnce: true, localNetworkPermission: .denied), 2
            ),
            (
                #"{"version":2,"discoveryHasStartedOnce":false,"localNetworkPermission":"notDetermined","bluetoothPromptAnswered":true}"#,
                SenderFlowState(bluetoothPromptAnswered: true), 2
            ),
        ])
    func versions(text: String, state: SenderFlowState, version: Int) throws {
        try Self.withFile(text) { (url: URL) throws in
            #expect(try SenderFlowStore(url: url).load() == .init(state: state, version: version))
        }
    }

    @Test(
        "a corrupt file is reported and treated as absent",
        arguments: [
            "{", "", "[]", #"{"version": 3, "discoveryHasStartedOnce": true}"#, #"{"version": 2}"#,
            #"{"version": 2, "discoveryHasStartedOnce": true}"#,
            #"{"version": 2, "discoveryHasStartedOnce": true, "localNetworkPermission": "granted"}"#,
            #"{"version": 2, "discoveryHasStartedOnce": true, "localNetworkPermission": "maybe", "bluetoothPromptAnswered": false}"#,
            #"{"version": 1, "discoveryHasStartedOnce": "yes"}"#,
        ])
    func corrupt(text: String) throws {
        try Self.withFile(text) { (url: URL) throws in
            let loaded = try SenderFlowStore(url: url).load()
            #expect(loaded.state == SenderFlowState())
            #expect(loaded.version == nil)
            #expect(loaded.problem?.kind == .corrupt)
            #expect(loaded.problem?.description.contains("treated as absent") == true)
        }
    }

    @Test("saves version 2 atomically and loads it back; missing means a fresh install")
    func roundTrip() throws {
        try Self.withFile(nil) { (url: URL) throws in
            let store = SenderFlowStore(url: url)
            #expect(try store.load() == .init(state: SenderFlowState(), version: nil))
            for state in [
                SenderFlowState(discoveryHasStartedOnce: true, localNetworkPermission: .granted),
                SenderFlowState(
                    discoveryHasStartedOnce: true, localNetworkPermission: .denied, bluetoothPromptAnswered: true),
            ] {
                try store.save(state)
                #expect(try store.load() == .init(state: state, version: 2))
            }
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(
                text
                    == #"{"bluetoothPromptAnswered":true,"discoveryHasStartedOnce":true,"localNetworkPermission":"denied","version":2}"#
            )
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                    "discovery.json"
                ])
        }
    }

    @Test("a directory is unreadable; a path under a file is unwritable")
    func errors() throws {
        try Self.withFile(nil) { (url: URL) throws in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            #expect(throws: DiscoveryStartStoreError.self) { try SenderFlowStore(url: url).load() }
            let blocked = SenderFlowStore(url: url.appendingPathComponent("x/y.json"))
            try Data().write(to: url.appendingPathComponent("x"))
            do throws(DiscoveryStartStoreError) {
                try blocked.save(SenderFlowState())
                Issue.record("saved under a file")
            } catch {
                #expect(error.kind == .unwritable)
            }
        }
    }

    @Test("a version 1 file written by DiscoveryStartStore feeds the flow: discovery starts at launch")
    func compatibility() throws {
        try Self.withFile(nil) { (url: URL) throws in
            try DiscoveryStartStore(url: url).save(discoveryHasStartedOnce: true)
            let loaded = try SenderFlowStore(url: url).load()
            var flow = SenderFlow(configuration: SenderAppConfiguration(), state: loaded.state)
            let step = flow.handle(.appLaunched)
            #expect(step.discoveryRunning)
            #expect(step.screen == .localNetworkPrompt, "version 1 recorded no answer")
        }
    }
}
