import CastSender
import Foundation
import Testing

@Suite("DiscoveryStartStore")
struct DiscoveryStartStoreTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("start-store-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func error(_ body: () throws(DiscoveryStartStoreError) -> Void) -> DiscoveryStartStoreError? {
        do throws(DiscoveryStartStoreError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("absent means not started; saved facts load back; writes leave no temporary files")
    func roundTrip() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = DiscoveryStartStore(url: directory.appendingPathComponent("sub/dir/discovery.json"))
        #expect(try store.load() == .init(discoveryHasStartedOnce: false, problem: nil))
        try store.save(discoveryHasStartedOnce: true)
        #expect(try store.load() == .init(discoveryHasStartedOnce: true, problem: nil))
        try store.save(discoveryHasStartedOnce: false)
        #expect(try store.load().discoveryHasStartedOnce == false)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("sub/dir").path)
        #expect(files == ["discovery.json"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: store.url)) as? [String: Any]
        #expect(json?["version"] as? Int == SenderFlowStore.currentVersion)
    }

    @Test("saving the fact keeps the permission answers stored beside it")
    func keepsAnswers() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("sender.json")
        try SenderFlowStore(url: url).save(SenderFlowState(localNetworkPermission: .denied))
        try DiscoveryStartStore(url: url).save(discoveryHasStartedOnce: true)
        let state = try SenderFlowStore(url: url).load().state
        #expect(state == SenderFlowState(discoveryHasStartedOnce: true, localNetworkPermission: .denied))
    }

    @Test(
        "a corrupt file is reported and treated as absent",
        arguments: [
            "{", "", "[]", "{\"version\": 3, \"discoveryHasStartedOnce\": true}", "{\"version\": 1}",
            "{\"version\": 1, \"discoveryHasStartedOnce\": \"yes\"}",
        ])
    func corrupt(text: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("discovery.json")
        try Data(text.utf8).write(to: url)
        let loaded = try DiscoveryStartStore(url: url).load()
        #expect(!loaded.discoveryHasStartedOnce)
        #expect(loaded.problem?.kind == .corrupt)
        #expect(loaded.problem?.description.contains("treated as absent") == true)
    }

    @Test("a huge file is corrupt, not read as a store")
    func huge() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("discovery.json")
        try Data(repeating: UInt8(ascii: " "), count: DiscoveryStartStore.maximumFileSize + 1).write(to: url)
        #expect(try DiscoveryStartStore(url: url).load().problem?.kind == .corrupt)
    }

    @Test("a directory is refused, a path under a file cannot be written; both say so clearly")
    func badPaths() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = Self.error { () throws(DiscoveryStartStoreError) in
            _ = try DiscoveryStartStore(url: directory).load()
        }
        #expect(refused?.kind == .refused)
        #expect(refused?.description.contains("it is a directory") == true)
        #expect(refused?.description.contains("left untouched") == true)

        let file = directory.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let underFile = DiscoveryStartStore(url: file.appendingPathComponent("discovery.json"))
        let unwritable = Self.error { () throws(DiscoveryStartStoreError) in
            try underFile.save(discoveryHasStartedOnce: true)
        }
        #expect(unwritable?.kind == .unwritable)
        #expect(
            unwritable?.description.hasPrefix(
                "cannot write state file \"\(underFile.url.path)\": lstat: Not a directory") == true)
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")

        let onDirectory = Self.error { () throws(DiscoveryStartStoreError) in
            try DiscoveryStartStore(url: directory).save(discoveryHasStartedOnce: true)
        }
        #expect(onDirectory?.kind == .refused)
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("two launches through the store: the first tap is remembered")
    func twoLaunches() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = DiscoveryStartStore(url: directory.appendingPathComponent("discovery.json"))
        let options = CastOptions(platform: .iOS(major: 17))

        var first = DiscoveryStartPolicy(
            options: options, discoveryHasStartedOnce: try store.load().discoveryHasStartedOnce)
        #expect(!first.handle(.appLaunched).shouldDiscover)
        #expect(first.handle(.castButtonTapped).showInterstitial)
        let dismissed = first.handle(.interstitialDismissed)
        #expect(dismissed.shouldDiscover && dismissed.rememberDiscoveryStarted)
        if dismissed.rememberDiscoveryStarted { try store.save(discoveryHasStartedOnce: true) }

        var second = DiscoveryStartPolicy(
            options: options, discoveryHasStartedOnce: try store.load().discoveryHasStartedOnce)
        #expect(second.handle(.appLaunched) == .init(shouldDiscover: true))
    }
}
