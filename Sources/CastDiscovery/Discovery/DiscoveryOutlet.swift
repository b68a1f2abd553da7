/// What a ``DiscoveryManager`` shows the world: the state its loop last published, the event
/// streams of its subscribers, and its delegate. The loop is its only writer; the manager's
/// getters and ``subscribe()`` read it. Events and the state they leave are published together,
/// so a subscriber's snapshot plus its events always mirror the list. Each subscriber's events
/// wait in a bounded queue (``SubscriberQueue``): one that falls too far behind gets one
/// ``DiscoveryEvent/eventsDropped(_:)`` with the state instead of the events it missed.
final class DiscoveryOutlet: Sendable {
    /// The state as of the last published batch of events.
    struct Snapshot: Sendable {
        var list = DeviceListSnapshot()
        var discoveryState = DiscoveryState.stopped
        var backendState: BackendState?
        var isScanComplete = false
        var lastCompletion: ScanCompletion?
        var pendingFindID: String?
    }

    private struct State {
        var snapshot = Snapshot()
        var subscribers: [Int: WaitableQueue<SubscriberQueue>] = [:]
        var missedEvents = 0
        var nextSubscriber = 0
        weak var delegate: (any DiscoveryManagerDelegate)?
        var passiveScan = false
        var closed = false
    }

    private let state = LockedValue(State())
    private let capacity: Int

    /// An outlet whose subscribers each have `capacity` events waiting at most.
    init(subscriberCapacity capacity: Int) {
        self.capacity = capacity
    }

    /// How many events subscribers missed so far, all of them together.
    var missedEvents: Int { state.withLock { $0.missedEvents } }

    /// How many events wait for each subscriber, in no particular order.
    var waitingEvents: [Int] { state.withLock { $0.subscribers.values.map { $0.read(\.count) } } }

    var snapshot: Snapshot { state.withLock { $0.snapshot } }

    var delegate: (any DiscoveryManagerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    var passiveScan: Bool {
        get { state.withLock { $0.passiveScan } }
        set { state.withLock { $0.passiveScan = newValue } }
    }

    /// Publishes `snapshot` and queues `events` to every subscriber, in one step.
    func publish(_ snapshot: Snapshot, _ events: [NumberedDiscoveryEvent]) {
        state.withLock { s in
            s.snapshot = snapshot
            guard !events.isEmpty else { return }
            for queue in s.subscribers.values { s.missedEvents += queue.update { $0.push(events, leaving: snapshot) } }
        }
    }

    /// The state now and the events published after it, taken in one step; `transform` makes
    /// each element of the stream.
    func subscribe<Element: Sendable>(
        _ transform: @escaping @Sendable (NumberedDiscoveryEvent) -> Element
    ) -> (snapshot: Snapshot, events: AsyncStream<Element>) {
        let queue = WaitableQueue(SubscriberQueue(capacity: capacity))
        let (snapshot, id) = state.withLock { s in
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            if s.closed {
                queue.update { $0.ended = true }
            } else {
                s.subscribers[id] = queue
            }
            return (s.snapshot, id)
        }
        let stream = AsyncStream<Element>.pulling(from: queue, transform) { [weak self] in
            queue.update { $0.ended = true }
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return (snapshot, stream)
    }

    /// Ends every subscriber's stream: the manager is gone.
    func close() {
        let subscribers = state.withLock { s in
            s.closed = true
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        subscribers.forEach { $0.update { $0.ended = true } }
    }
}
