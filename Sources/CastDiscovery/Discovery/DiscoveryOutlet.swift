import Synchronization

/// What a ``DiscoveryManager`` shows the world: the state its loop last published, the event
/// streams of its subscribers, and its delegate. The loop is its only writer; the manager's
/// getters and ``subscribe()`` read it. Events and the state they leave are published together,
/// so a subscriber's snapshot plus its events always mirror the list.
final class DiscoveryOutlet: Sendable {
    /// The state as of the last published batch of events.
    struct Snapshot: Sendable {
        var devices: [CastDevice] = []
        var devicesByID: [String: CastDevice] = [:]
        var discoveryState = DiscoveryState.stopped
        var backendState: BackendState?
        var isScanComplete = false
        var lastCompletion: ScanCompletion?
        var pendingFindID: String?
    }

    private struct State {
        var snapshot = Snapshot()
        var subscribers: [Int: AsyncStream<DiscoveryEvent>.Continuation] = [:]
        var nextSubscriber = 0
        weak var delegate: (any DiscoveryManagerDelegate)?
        var passiveScan = false
        var closed = false
    }

    private let state = Mutex(State())

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
    func publish(_ snapshot: Snapshot, _ events: [DiscoveryEvent]) {
        state.withLock { s in
            s.snapshot = snapshot
            for event in events {
                for continuation in s.subscribers.values { continuation.yield(event) }
            }
        }
    }

    /// The state now and the events published after it, taken in one step.
    func subscribe() -> (snapshot: Snapshot, events: AsyncStream<DiscoveryEvent>) {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self, bufferingPolicy: .unbounded)
        let (snapshot, id, closed) = state.withLock { s in
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            if !s.closed { s.subscribers[id] = continuation }
            return (s.snapshot, id, s.closed)
        }
        if closed {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
            }
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
        subscribers.forEach { $0.finish() }
    }
}
