/// The events published to one subscriber of a ``DiscoveryManager`` that it has not read yet.
///
/// At most ``capacity`` wait. A batch that would not fit means the subscriber is too slow: every
/// event waiting and the batch are dropped, replaced by one
/// ``DiscoveryEvent/eventsDropped(_:)`` with the state after the batch; a subscriber that stays
/// behind keeps that one event, its count growing and its state the newest.
struct SubscriberQueue: WaitableQueueStorage {
    let capacity: Int
    private var items = FIFOBuffer<DiscoveryEvent>()
    /// The stream ended: the manager is gone, or the subscriber.
    var ended = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var isEnded: Bool { ended && items.isEmpty }
    var count: Int { items.count }

    mutating func take() -> DiscoveryEvent? {
        items.popFirst()
    }

    /// Queues `events`, published with `snapshot`; returns how many events it dropped now.
    mutating func push(_ events: [DiscoveryEvent], leaving snapshot: DiscoveryOutlet.Snapshot) -> Int {
        guard !ended, !events.isEmpty else { return 0 }
        if items.count + events.count <= capacity {
            items.append(contentsOf: events)
            return 0
        }
        var earlier = 0
        var dropped = items.count + events.count
        if case .eventsDropped(let missed)? = items.all.first {
            earlier = missed.count
            dropped -= 1
        }
        items.removeAll()
        items.append(.eventsDropped(MissedEvents(
            count: earlier + dropped, devices: snapshot.devices, discoveryState: snapshot.discoveryState,
            backendState: snapshot.backendState, scanCompletion: snapshot.lastCompletion)))
        return dropped
    }
}
