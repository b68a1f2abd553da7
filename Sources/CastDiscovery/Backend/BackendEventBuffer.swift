/// The bounded buffer between a backend and the consumer of its events: what every backend's
/// ``DiscoveryBackend/events(for:)`` stream reads from.
///
/// Up to ``capacity`` events wait in order, exactly as yielded. A consumer that falls further
/// behind loses no state: while the buffer is full, each further event is folded into a summary
/// of what it changes, delivered once the waiting events have been read. The summary holds the
/// newest state of each service (an `updated` replaces the one before it; a service found and
/// removed while the consumer was behind is not reported at all), the newest pending-resolve
/// count and statistics, each announced copy and failed resolve once per service, and each
/// milestone (state change, browse started, cache delivered, all-for-now, a source's step) once,
/// at its last occurrence; service states come before the counts, the counts before the
/// milestones, so each milestone follows everything that preceded it. Its size is bounded by
/// the services the backend knows and the browses it runs; copies and failures of services it
/// has no state of are kept for at most ``capacity`` services, further ones are dropped.
///
/// What was folded or dropped is counted (``coalescedEvents``) and said in-band: each
/// ``BackendEvent/statistics(_:)`` the consumer reads carries the count in
/// ``BackendStatistics/coalescedEvents``, and a summary that merged anything carries statistics
/// (the newest the backend sent, or empty counts from a backend that sends none).
///
/// The producer calls ``yield(_:)`` from any thread (it never waits), or ``send(_:)`` from a task
/// that may wait for room instead (nothing is then folded), and ``finish()`` at the end. The
/// consumer reads the stream (``makeStream(capacity:)``), or, inside this package, takes the
/// events directly (`take(orNotify:)`): a ``DiscoveryManager`` reads its sources' buffers so,
/// with no queue between them and its loop.
public final class BackendEventBuffer: Sendable {
    /// The default ``capacity``: 8,192 events, 16 for each of 500 devices. A source reports
    /// four events a device at start-up (two copies, each added and resolved); a start-up of
    /// 500 devices through the querier beside avahi-daemon gives the merged stream 4,510
    /// events, 9 a device (measured in `MergedBackendTests`): a consumer that has not read at
    /// all during such a start-up still receives every event as sent. A waiting event holds
    /// one service or copy report, about 2 KB (1.9 KB measured with a full Cast TXT and two
    /// addresses), so a full buffer holds about 16 MB.
    public static let defaultCapacity = 8192

    /// How many events wait in order before further ones are folded.
    public let capacity: Int

    private let queue: WaitableQueue<BackendEventQueue>
    private let termination = LockedValue<Termination>(Termination())

    private struct Termination {
        var handler: (@Sendable () -> Void)?
        var happened = false
    }

    /// Makes a buffer holding `capacity` events in order (at least one) and the stream that
    /// reads it; the stream's consumer going away runs ``onTermination``.
    public static func makeStream(capacity: Int = defaultCapacity) -> (
        stream: AsyncStream<BackendEvent>, buffer: BackendEventBuffer
    ) {
        let buffer = BackendEventBuffer(capacity: capacity)
        return (buffer.stream(), buffer)
    }

    /// Makes a buffer holding `capacity` events in order (at least one), to be read with
    /// ``stream()`` or ``take(orNotify:)``.
    package init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
        queue = WaitableQueue(BackendEventQueue(capacity: self.capacity))
    }

    /// The stream that reads the buffer (one reader: this, or ``take(orNotify:)``); its consumer
    /// going away lets go of the buffer (``letGo()``).
    package func stream() -> AsyncStream<BackendEvent> {
        AsyncStream<BackendEvent>.pulling(from: queue) { [self] in letGo() }
    }

    /// What ``take(orNotify:)`` found.
    package enum Taken: Sendable, Equatable {
        /// The next event.
        case event(BackendEvent)
        /// None now: the reader is told when there is one (or the end).
        case waiting
        /// The producer finished and every event has been taken.
        case ended
    }

    /// The next event, without waiting; when there is none, `notify` is called once, on the
    /// producer's thread and outside the buffer's lock, as soon as there is one or the producer
    /// finishes. One reader, which does not also read ``stream()``.
    package func take(orNotify notify: @escaping @Sendable () -> Void) -> Taken {
        queue.update { queue -> Taken in
            if let event = queue.take() { return .event(event) }
            if queue.isEnded { return .ended }
            queue.notifier = notify
            return .waiting
        }
    }

    /// When the producer last queued an event (nil before the first): read after taking an
    /// event, at or after the moment that event was made.
    package var lastPush: ContinuousClock.Instant? { queue.read(\.lastPush) }

    /// The time up to which the producer has queued everything it had read (its sockets, at the
    /// end of a poll round); nil for a producer that does not say. A merge judges a stack's
    /// short waits by it, in the stack's own time (see ``ServiceAggregator``).
    package var readThrough: ContinuousClock.Instant? { queue.read(\.readThrough) }

    /// ``readThrough`` when every event queued has been taken, else nil: read under the lock the
    /// reader takes and merges under, it says that everything the stack read up to then is merged.
    package var readThroughIfDrained: ContinuousClock.Instant? {
        queue.read { $0.isDrained ? $0.readThrough : nil }
    }

    /// Records that the producer has queued everything it read up to `instant`.
    package func noteReadThrough(_ instant: ContinuousClock.Instant) {
        queue.update { queue in queue.readThrough = max(queue.readThrough ?? instant, instant) }
    }

    /// The reader is done: nothing more is kept, the producer's events are let go, and
    /// ``onTermination`` runs.
    package func letGo() {
        queue.update { queue in
            queue.consumerGone = true
            queue.notifier = nil
        }
        terminate()
    }

    /// A buffer that `stream`'s events are read into, as they come, by a task of its own (the
    /// task waits for room: nothing is folded); letting go of the buffer ends the task.
    package static func relaying(_ stream: AsyncStream<BackendEvent>) -> BackendEventBuffer {
        let buffer = BackendEventBuffer()
        let task = Task {
            for await event in stream { await buffer.send(event) }
            buffer.finish()
        }
        buffer.onTermination = { task.cancel() }
        return buffer
    }

    /// Runs once, on the producer's ``finish()`` or when the consumer is done (it read the end,
    /// was cancelled, or let go of the stream); set right after ``makeStream(capacity:)``. Set
    /// after either, it runs at once.
    public var onTermination: (@Sendable () -> Void)? {
        get { termination.withLock { $0.handler } }
        set {
            let runNow = termination.withLock { state -> Bool in
                guard !state.happened else { return true }
                state.handler = newValue
                return false
            }
            if runNow { newValue?() }
        }
    }

    /// Queues `event`, or folds it into the summary when the buffer is full; never waits. Does
    /// nothing after ``finish()`` or once the consumer is gone.
    public func yield(_ event: BackendEvent) {
        queue.update { queue in
            queue.push(event)
            return queue.takeNotifier()
        }?()
    }

    /// Queues `event`, waiting for room when the buffer is full (nothing is folded); returns
    /// without queueing it when the calling task is cancelled or the consumer is gone.
    public func send(_ event: BackendEvent) async {
        while !Task.isCancelled {
            let (pushed, notify) = queue.update { queue in (queue.pushIfRoom(event), queue.takeNotifier()) }
            notify?()
            if pushed { return }
            await queue.wait { $0.hasRoom || $0.isClosed }
        }
    }

    /// Ends the stream: the consumer reads what waits, then the end. Runs ``onTermination``.
    public func finish() {
        queue.update { queue in
            queue.finished = true
            return queue.takeNotifier()
        }?()
        terminate()
    }

    /// How many events the consumer did not receive on their own: folded into newer ones while
    /// the buffer was full, or dropped from the summary (see the type's description).
    public var coalescedEvents: Int { queue.read(\.coalescedTotal) }

    /// How many events wait (in order and in the summary's entries).
    public var bufferedEvents: Int { queue.read(\.bufferedCount) }

    private func terminate() {
        let handler = termination.withLock { state -> (@Sendable () -> Void)? in
            guard !state.happened else { return nil }
            state.happened = true
            defer { state.handler = nil }
            return state.handler
        }
        handler?()
    }
}
