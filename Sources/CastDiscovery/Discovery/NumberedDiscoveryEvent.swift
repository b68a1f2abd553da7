/// A ``DiscoveryEvent`` with the generation of the manager's list after it (see
/// ``DeviceList/generation``).
///
/// A list change's generation is one more than the one before it; every other event has the
/// generation of the list it leaves. A consumer that mirrors the list applies a change whose
/// generation is its own plus one, skips one it already has, and takes the manager's
/// ``DiscoveryManager/list`` on a gap.
public struct NumberedDiscoveryEvent: Sendable, Hashable {
    /// The event.
    public var event: DiscoveryEvent
    /// The list's generation after the event.
    public var generation: Int

    /// Pairs an event with the list's generation after it.
    public init(_ event: DiscoveryEvent, generation: Int) {
        self.event = event
        self.generation = generation
    }

    /// Numbers a batch of events published together, given the list's generation after the
    /// batch: each list change advances it by one.
    static func numbering(_ events: [DiscoveryEvent], endingAt generation: Int) -> [NumberedDiscoveryEvent] {
        var current = generation - events.reduce(0) { $0 + ($1.listChange == nil ? 0 : 1) }
        return events.map { event in
            if event.listChange != nil { current += 1 }
            return NumberedDiscoveryEvent(event, generation: current)
        }
    }
}
