@testable import CastDiscovery
import Testing

/// The manager publishes its list's changes with their generations: a subscriber's snapshot
/// plus the numbered changes rebuild the list, and one that fell behind learns the generation
/// of the list it is given.
@Suite("DiscoveryManager generations")
struct DiscoveryManagerGenerationTests {
    typealias S = TestService

    @Test(
        "numbered events: each list change one generation after the last, the batch marks around them, the mirror equal to the list"
    )
    func numberedEvents() async {
        let backend = ScriptedBackend()
        let manager = DiscoveryManager(backend: backend)
        let (list, events) = manager.subscribeWithGenerations()
        #expect(list.generation == 0 && list.isEmpty)
        var iterator = events.makeAsyncIterator()
        manager.startDiscovery()
        while let numbered = await iterator.next() {
            if case .discoveryStarted = numbered.event { break }
        }
        backend.send(.found(S.make("a", id: S.uuid(1), name: "Alpha")))
        backend.send(.found(S.make("b", id: S.uuid(2), name: "Beta")))
        backend.send(.updated(S.make("b", id: S.uuid(3), name: "Gamma")))  // another id: a removal and an insertion
        backend.send(.removed(S.make("a", id: S.uuid(1), name: "Alpha")))
        backend.send(.cacheExhausted(browseType: "marker"))

        var mirror = list.devices
        var generation = list.generation
        var batchStart: Int?
        while let numbered = await iterator.next() {
            switch numbered.event {
            case .willUpdateDeviceList:
                #expect(numbered.generation == generation, "the batch starts at the mirror's generation")
                batchStart = generation
            case .didUpdateDeviceList:
                #expect(numbered.generation == generation && batchStart.map { generation > $0 } == true)
            case .cacheExhausted(browseType: "marker"):
                #expect(numbered.generation == generation)
            default:
                if let change = numbered.event.listChange {
                    #expect(numbered.generation == generation + 1, "consecutive")
                    generation = numbered.generation
                    change.apply(to: &mirror)
                }
            }
            if case .cacheExhausted(browseType: "marker") = numbered.event { break }
        }
        #expect(generation == 5)
        #expect(manager.list.generation == 5)
        #expect(mirror == manager.devices)
        #expect(mirror.map(\.friendlyName) == ["Gamma"])
    }

    @Test("a subscriber that fell behind gets the list its missed events left, with its generation")
    func missedEventsCarryTheGeneration() {
        var list = DeviceList()
        for number in 0..<5 { _ = list.apply(.found(S.make("i\(number)", id: S.uuid(number), name: "D\(number)"))) }
        var snapshot = DiscoveryOutlet.Snapshot()
        snapshot.list = list.snapshot
        var queue = SubscriberQueue(capacity: 2)
        let events = NumberedDiscoveryEvent.numbering(
            [.willUpdateDeviceList, .inserted(list.devices[4], at: 4), .didUpdateDeviceList], endingAt: 5)
        #expect(events.map(\.generation) == [4, 5, 5])
        #expect(queue.push(events, leaving: snapshot) == 3)
        // The list goes on changing; the dropped marker keeps the state it was given.
        _ = list.apply(.removed(S.make("i0", id: S.uuid(0), name: "D0")))
        let taken = queue.take()
        guard let taken, case .eventsDropped(let missed) = taken.event else {
            Issue.record("not a drop: \(taken)")
            return
        }
        #expect(missed.count == 3 && missed.generation == 5 && taken.generation == 5)
        #expect(missed.devices.map(\.friendlyName) == ["D0", "D1", "D2", "D3", "D4"])
        #expect(queue.take() == nil)
    }
}
