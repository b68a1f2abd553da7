@testable import CastDiscovery
import Foundation
import Testing

@Suite("DiscoveryOutlet: each subscriber bounded", .timeLimit(.minutes(10)))
struct DiscoveryOutletTests {
    typealias Script = StartupScript

    /// Waits until `ready` holds, for at most `limit`.
    static func wait(limit: Duration = .seconds(600), until ready: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if ready() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return ready()
    }

    /// What a subscriber reads up to and including the first event `stop` accepts: the events
    /// (without the missed-events reports), those reports, and its mirror of the list.
    static func follow(
        _ stream: AsyncStream<DiscoveryEvent>, from devices: [CastDevice], until stop: (DiscoveryEvent) -> Bool
    ) async -> (events: [DiscoveryEvent], missed: [MissedEvents], mirror: [CastDevice]) {
        var (events, missed, mirror) = ([DiscoveryEvent](), [MissedEvents](), devices)
        for await event in stream {
            if case .eventsDropped(let report) = event {
                missed.append(report)
                mirror = report.devices
                continue
            }
            events.append(event)
            event.listChange?.apply(to: &mirror)
            if stop(event) { break }
        }
        return (events, missed, mirror)
    }

    @Test(
        "a subscriber that never reads while 10 devices are updated 1,000 times each: at most the bound waits; then it learns how many it missed and carries on from the list they left"
    )
    func stalledSubscriber() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        let (initial, stalled) = manager.subscribe()
        manager.startDiscovery()
        #expect(await Self.wait { manager.discoveryState == .running })
        for index in 0..<10 { backend.send(.found(Script.service(index))) }
        for version in 1...1_000 {
            for index in 0..<10 { backend.send(.updated(Script.service(index, version: version))) }
        }
        backend.send(.removed(Script.service(0, version: 1_000)))
        // Published with the last batch: everything before it is, too.
        backend.send(.stateChanged(.connecting))
        #expect(await Self.wait { manager.backendState == .connecting })
        let waiting = manager.waitingEvents
        #expect(waiting.count == 1 && waiting[0] <= DiscoveryManager.subscriberCapacity, "\(waiting) events wait")

        let read = await Self.follow(stalled, from: initial) { $0 == .backendStateChanged(.connecting) }
        // Started, 10 insertions and 10,000 updates and one removal (three events each), the state.
        let published = 1 + 3 * (10 + 10_000 + 1) + 1
        #expect(read.missed.count == 1, "one report, however long it stayed behind")
        let missed = read.missed.first?.count ?? 0
        #expect(read.events.count + missed == published)
        #expect(missed > published - DiscoveryManager.subscriberCapacity)
        #expect(manager.missedEvents == missed)
        #expect(read.missed.first?.discoveryState == .running)
        #expect(read.mirror == manager.devices, "the mirror carried on from the report equals the list")
        #expect(manager.devices.count == 9 && manager.devices.allSatisfy { $0.port == 8009 + 1_000 })
    }

    @Test(
        "a start-up of 500 devices through the querier beside a daemon while the subscriber has not read: every event kept"
    )
    func startupOf500() async {
        let querier = BufferedTestBackend(Script.startup(devices: 500), finishes: false)
        let daemon = BufferedTestBackend(Script.startup(devices: 500), finishes: false)
        let merged = MergedBackend([
            MergedBackend.Source("mdns", querier), MergedBackend.Source("avahi", daemon, role: .cache),
        ])
        let manager = DiscoveryManager(backend: merged)
        let (initial, stalled) = manager.subscribe()
        manager.startDiscovery()
        #expect(await Self.wait { manager.isScanComplete })
        let read = await Self.follow(stalled, from: initial) { if case .scanCompleted = $0 { true } else { false } }
        #expect(read.missed.isEmpty && manager.missedEvents == 0)
        #expect(read.events.filter { if case .inserted = $0 { true } else { false } }.count == 500)
        #expect(read.mirror == manager.devices && manager.deviceCount == 500)
        #expect(manager.devices.allSatisfy { $0.addresses.count == 2 })
        #expect(
            !read.events.contains { if case .backendStatistics = $0 { true } else { false } },
            "nothing folded on the way")
        // Measured: the figure the subscriber's bound is set against.
        #expect(read.events.count < DiscoveryManager.subscriberCapacity, "\(read.events.count) events for 500 devices")
        print("manager start-up of 500 devices: \(read.events.count) events")
    }
}
