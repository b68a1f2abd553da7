/// What a ``DiscoveryManager``'s loop takes, in arrival order: the application's start, stop and
/// find, the backend's events of the current run, the loop's own timers.
///
/// Bounded, and nothing in it is dropped:
/// - Backend events: at most ``backendCapacity`` wait; the task that reads the backend's stream
///   then waits for the loop, so further events wait in the backend's own buffer (which folds
///   them, see ``BackendEventBuffer``).
/// - Start and stop: a request that repeats the one queued just before it changes nothing and is
///   not queued; an alternation queued back to back keeps its first two requests and its last
///   (start, stop, start, stop does what start, stop does, less runs that would have ended
///   before any event), so at most three wait in a row.
/// - A find whose caller gave up while it waited is answered at once and leaves the queue, so
///   finds never outnumber the callers waiting for one; timers queue at most one input each.
struct DiscoveryInbox: WaitableQueueStorage {
    /// How many backend events wait for the loop before the reader waits: 1,024, enough to keep
    /// the loop busy; the backend's buffer holds the rest.
    static let backendCapacity = 1024

    private var items = FIFOBuffer<DiscoveryLoop.Input>()
    private var backendQueued = 0
    /// The start (true) and stop (false) requests at the back of the queue, in order.
    private var requestTail: [Bool] = []
    /// The manager is gone: the loop reads what waits, then ends.
    var finished = false

    var isEnded: Bool { finished && items.isEmpty }
    var hasRoomForBackend: Bool { backendQueued < Self.backendCapacity || finished }

    mutating func take() -> DiscoveryLoop.Input? {
        guard let input = items.popFirst() else { return nil }
        if case .backend = input { backendQueued -= 1 }
        if items.count < requestTail.count { requestTail.removeFirst() }
        return input
    }

    /// Queues an application request or a timer's input; returns a find to answer with nil
    /// (once unlocked): one whose caller gave up before the loop took it, or one that came after
    /// the manager went away.
    mutating func post(_ input: DiscoveryLoop.Input) -> CheckedContinuation<CastDevice?, Never>? {
        if finished {
            if case .find(_, _, _, let continuation) = input { return continuation }
            return nil
        }
        switch input {
        case .start, .stop:
            let start = if case .start = input { true } else { false }
            if requestTail.last == start { return nil }
            if requestTail.count >= 3 {
                // a, b, a and now b: a, b does the same.
                items.removeLast()
                requestTail.removeLast()
                return nil
            }
            items.append(input)
            requestTail.append(start)
            return nil
        case .findEnded(let token):
            let queued = items.removeFirst { queued in
                if case .find(let queuedToken, _, _, _) = queued { queuedToken == token } else { false }
            }
            if case .find(_, _, _, let continuation)? = queued { return continuation }
        case .backend:
            backendQueued += 1
        case .find, .backendEnded, .deadline:
            break
        }
        items.append(input)
        requestTail = []
        return nil
    }

    /// Queues a backend event when fewer than ``backendCapacity`` wait; says whether it did (or
    /// the manager is gone and it was let go).
    mutating func postBackend(_ input: DiscoveryLoop.Input) -> Bool {
        if finished { return true }
        guard hasRoomForBackend else { return false }
        _ = post(input)
        return true
    }
}
