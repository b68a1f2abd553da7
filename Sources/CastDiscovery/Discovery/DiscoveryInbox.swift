/// What a ``DiscoveryManager``'s loop takes, in arrival order: the application's start, stop and
/// find, word that a source of the current run has events, the loop's own timers.
///
/// Bounded, and nothing in it is dropped:
/// - Backend events never wait here: they wait in their source's own buffer (which folds them
///   when the loop is far behind, see ``BackendEventBuffer``), and a source has at most one
///   ``DiscoveryLoop/Input/sourceReady(run:source:)`` queued at a time.
/// - Start and stop: a request that repeats the one queued just before it changes nothing and is
///   not queued; an alternation queued back to back keeps its first two requests and its last
///   (start, stop, start, stop does what start, stop does, less runs that would have ended
///   before any event), so at most three wait in a row.
/// - A find whose caller gave up while it waited is answered at once and leaves the queue, so
///   finds never outnumber the callers waiting for one; timers queue at most one input each.
struct DiscoveryInbox: WaitableQueueStorage {
    private var items = FIFOBuffer<DiscoveryLoop.Input>()
    /// The start (true) and stop (false) requests at the back of the queue, in order.
    private var requestTail: [Bool] = []
    /// The manager is gone: the loop reads what waits, then ends.
    var finished = false

    var isEnded: Bool { finished && items.isEmpty }

    mutating func take() -> DiscoveryLoop.Input? {
        guard let input = items.popFirst() else { return nil }
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
        case .find, .sourceReady, .deadline:
            break
        }
        items.append(input)
        requestTail = []
        return nil
    }
}
