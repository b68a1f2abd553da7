/// The events published to one subscriber of a ``DiscoveryManager`` that it has not read yet.
///
/// At most ``capacity`` wait. A batch that would not fit means the subscriber is too slow: every
/// event waiting and the batch are dropped, replaced by one
/// ``DiscoveryEvent/eventsDropped(_:)`` with the state after the batch; a subscriber that stays
/// behind keeps that one event, its count growing and its state the newest. The state is kept as
/// the published snapshot and made into the event's device array only when the subscriber reads
/// it, so falling behind costs no copy of the list per batch.
struct SubscriberQueue: WaitableQueueStorage {
    /// Events dropped, and the state they left; read before any waiting event.
    private struct Dropped {
        var count: Int
        var snapshot: DiscoveryOutlet.Snapshot
    }

    let capacity: Int
    private var items = FIFOBuffer<NumberedDiscoveryEvent>()
    private var dropped: Dropped?
    /// The stream ended: the manager is gone, or the subscriber.
    var ended = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var isEnded: Bool { ended && count == 0 }
    var count: Int { items.count + (dropped == nil ? 0 : 1) }

    mutating func take() -> NumberedDiscoveryEvent? {
        guard let dropped else { return items.popFirst() }
        self.dropped = nil
        let snapshot = dropped.snapshot
        let missed = MissedEvents(
            count: dropped.count, devices: snapshot.list.devices, discoveryState: snapshot.discoveryState,
            backendState: snapshot.backendState, scanCompletion: snapshot.lastCompletion,
            generation: snapshot.list.generation)
        return NumberedDiscoveryEvent(.eventsDropped(missed), generation: snapshot.list.generation)
    }

    /// Queues `events`, published with `snapshot`; returns how many events it dropped now.
    mutating func push(_ events: [NumberedDiscoveryEvent], leaving snapshot: DiscoveryOutlet.Snapshot) -> Int {
        guard !ended, !events.isEmpty else { return 0 }
        if count + events.count <= capacity {
            items.append(contentsOf: events)
            return 0
        }
        let droppedNow = items.count + events.count
        items.removeAll()
        dropped = Dropped(count: (dropped?.count ?? 0) + droppedNow, snapshot: snapshot)
        return droppedNow
    }
}
