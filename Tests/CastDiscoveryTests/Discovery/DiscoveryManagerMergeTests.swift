@testable import CastDiscovery
import Testing

/// A ``MergedBackend`` given to a manager is merged in the manager's own loop: each source's
/// stream goes straight into the loop's inputs.
@Suite("DiscoveryManager: a merged backend, merged in the loop", .timeLimit(.minutes(10)))
struct DiscoveryManagerMergeTests {
    typealias S = TestService

    static func started() async -> (ScriptedBackend, ScriptedBackend, DiscoveryManager, EventReader) {
        let querier = ScriptedBackend(), daemon = ScriptedBackend()
        let merged = MergedBackend([.init("mdns", querier, role: .asks), .init("avahi", daemon, role: .cache)])
        let manager = DiscoveryManager(backend: merged, clock: ManualClock())
        var reader = EventReader(manager.events())
        manager.startDiscovery()
        await reader.started()
        return (querier, daemon, manager, reader)
    }

    static func tv(_ address: String) -> DiscoveredService {
        S.make("TV", id: S.uuid(1), name: "TV", address: address)
    }

    @Test("a device both sources see is listed once, with both addresses, until the last one lets it go")
    func oneDevice() async {
        var (querier, daemon, manager, reader) = await Self.started()
        querier.send(.found(Self.tv("10.0.0.1")))
        _ = await reader.read { if case .inserted = $0 { true } else { false } }
        daemon.send(.found(Self.tv("10.0.0.2")))
        let updated = await reader.read { if case .updated = $0 { true } else { false } }
        guard case .updated(let both, _)? = updated.last else { Issue.record("\(updated)"); return }
        #expect(both.addresses.map(\.address) == ["10.0.0.1", "10.0.0.2"])
        querier.send(.removed(Self.tv("10.0.0.1")))
        let left = await reader.read { if case .updated = $0 { true } else { false } }
        guard case .updated(let daemonOnly, _)? = left.last else { Issue.record("\(left)"); return }
        #expect(daemonOnly.addresses.map(\.address) == ["10.0.0.2"])
        daemon.send(.removed(Self.tv("10.0.0.2")))
        _ = await reader.read { if case .removed = $0 { true } else { false } }
        #expect(manager.devices.isEmpty)
    }

    @Test(
        "the merged browse is all-for-now once the querier said so and the daemon's cache is in, and the scan completes; its steps name each source"
    )
    func milestones() async {
        var (querier, daemon, manager, reader) = await Self.started()
        querier.send(.browseStarted(browseType: S.base), .found(Self.tv("10.0.0.1")), .allForNow(browseType: S.base))
        daemon.send(.browseStarted(browseType: S.base), .cacheExhausted(browseType: S.base))
        let events = await reader.read { if case .scanCompleted = $0 { true } else { false } }
        let milestones = events.filter {
            switch $0 {
            case .cacheExhausted, .allForNow: true
            default: false
            }
        }
        #expect(milestones == [.cacheExhausted(browseType: S.base), .allForNow(browseType: S.base)])
        guard case .scanCompleted(let done)? = events.last else { Issue.record("\(events)"); return }
        #expect(done.devices.map(\.friendlyName) == ["TV"])
        #expect(done.browses.first?.sources.map(\.source) == ["mdns", "avahi"])
        #expect(done.browses.first?.reason == .allForNow)
        #expect(manager.isScanComplete)
    }

    @Test("discovery ends when every source has ended, not before")
    func ending() async {
        var (querier, daemon, manager, reader) = await Self.started()
        querier.finish()
        // The daemon's events still reach the list after the querier ended.
        daemon.send(.found(Self.tv("10.0.0.2")))
        let events = await reader.read { if case .inserted = $0 { true } else { false } }
        #expect(!events.contains { if case .discoveryStopped = $0 { true } else { false } })
        #expect(manager.discoveryState == .running)
        daemon.finish()
        let end = await reader.read { if case .discoveryStopped = $0 { true } else { false } }
        #expect(end.last == .discoveryStopped(.backendEnded))
    }
}
