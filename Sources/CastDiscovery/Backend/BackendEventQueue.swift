/// What a ``BackendEventBuffer`` holds: the events in order, the summary of those that came
/// while it was full, and what it counted.
struct BackendEventQueue: WaitableQueueStorage {
    let capacity: Int
    private var items = FIFOBuffer<BackendEvent>()
    private var fold: BackendEventFold
    /// The services the consumer will have been told of once it has read everything queued and
    /// folded: found or updated, and not removed since.
    private var announced: Set<ServiceKey> = []
    /// The browses the consumer will have been told report each copy, once it has read
    /// everything queued and folded.
    private var knownCopies: [ServiceCopyKey: Set<String>] = [:]
    private var coalesced = 0
    private var lastStatistics: BackendStatistics?
    var finished = false
    var consumerGone = false
    /// When the producer last queued (or folded) an event: at or after the moment it made any
    /// event the consumer can take.
    var lastPush: ContinuousClock.Instant?
    /// The time up to which the producer has queued everything it read (nil: it does not say).
    var readThrough: ContinuousClock.Instant?
    /// Told once when an event can be taken or the queue has ended, for a reader that takes
    /// events directly (``BackendEventBuffer/take(orNotify:)``).
    var notifier: (@Sendable () -> Void)?

    init(capacity: Int) {
        self.capacity = capacity
        fold = BackendEventFold(hintLimit: capacity)
    }

    var isEnded: Bool { consumerGone || (finished && items.isEmpty && fold.isEmpty) }
    /// Whether every event queued has been taken.
    var isDrained: Bool { items.isEmpty && fold.isEmpty }
    var isClosed: Bool { consumerGone || finished }
    var hasRoom: Bool { fold.isEmpty && items.count < capacity }
    /// The notifier, taken, when there is something to tell it: an event, or the end.
    mutating func takeNotifier() -> (@Sendable () -> Void)? {
        guard let notifier, !items.isEmpty || !fold.isEmpty || isEnded else { return nil }
        self.notifier = nil
        return notifier
    }
    var bufferedCount: Int { items.count + (fold.isEmpty ? 0 : fold.events().count) }
    var coalescedTotal: Int { coalesced + (fold.isEmpty ? 0 : fold.taken - fold.events().count) }

    mutating func push(_ event: BackendEvent) {
        guard !isClosed else { return }
        lastPush = .now
        if hasRoom {
            items.append(event)
        } else {
            fold.take(
                event, known: Self.service(of: event).map(announced.contains) ?? false,
                knownBrowses: Self.copy(of: event).flatMap { knownCopies[$0] } ?? [])
        }
        note(event)
    }

    mutating func pushIfRoom(_ event: BackendEvent) -> Bool {
        guard !isClosed else { return true }
        guard hasRoom else { return false }
        lastPush = .now
        items.append(event)
        note(event)
        return true
    }

    mutating func take() -> BackendEvent? {
        if items.isEmpty, !fold.isEmpty { flushFold() }
        guard let event = items.popFirst() else { return nil }
        guard case .statistics(var counts) = event else { return event }
        counts.coalescedEvents += coalesced
        return .statistics(counts)
    }

    /// Moves the summary into the queue, counting what it merged.
    private mutating func flushFold() {
        var events = fold.events()
        let merged = fold.taken - events.count
        if merged > 0, !fold.hasStatistics {
            events = fold.events(addingStatistics: lastStatistics ?? BackendStatistics())
        }
        coalesced += merged
        items.append(contentsOf: events)
        fold = BackendEventFold(hintLimit: capacity)
    }

    private mutating func note(_ event: BackendEvent) {
        switch event {
        case .found(let service), .updated(let service): announced.insert(service.key)
        case .removed(let service): announced.remove(service.key)
        case .statistics(let counts): lastStatistics = counts
        case .copyAdded(let copy, let type): knownCopies[copy, default: []].insert(type)
        case .copyRemoved(let copy, let type):
            knownCopies[copy]?.remove(type)
            if knownCopies[copy]?.isEmpty == true { knownCopies[copy] = nil }
        case .stateChanged(.daemonLost), .stateChanged(.failed):
            // The merge forgets the copies the stack reported.
            knownCopies = [:]
        default: break
        }
    }

    private static func copy(of event: BackendEvent) -> ServiceCopyKey? {
        switch event {
        case .copyAdded(let copy, _), .copyRemoved(let copy, _), .copyResolved(let copy, _, _),
            .copyAddressesComplete(let copy),
            .copyFailed(let copy, _):
            copy
        default: nil
        }
    }

    private static func service(of event: BackendEvent) -> ServiceKey? {
        switch event {
        case .found(let service), .updated(let service), .removed(let service): service.key
        case .resolveFailed(let key, _): key
        default: nil
        }
    }
}
