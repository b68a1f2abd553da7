import CastDiscovery

/// The bounded queue between a program's events and its ``EventReporter``: a feeder appends
/// entries (an event to store and what to do once it is stored), a committer takes everything
/// queued when it comes for more, up to a batch limit, stores those events in one transaction
/// (group commit: one sync to disk for a burst), and hands the entries' payloads back in order.
///
/// Events are data, so nothing is ever dropped: while ``capacity`` entries wait, ``append(_:)``
/// waits for room (the feeder's own input, a ``DiscoveryManager`` subscription say, then folds
/// as it does for any slow subscriber). A batch that cannot be stored is stored not at all and
/// its payloads are not handed back; the queue then takes nothing more.
///
/// One feeder and one committer at a time.
package final class ReportQueue<Payload: Sendable>: Sendable {
    /// One entry: an event to store, or none, and what comes back once it is stored.
    package struct Entry: Sendable {
        /// The event: a JSON object this process encoded, its unsafe characters escaped (as
        /// ``EventReporter/record(encoded:)`` takes it; not parsed again). Nil for an entry
        /// that only keeps its place in the order.
        package var event: [UInt8]?
        /// Handed back to the committer once the event is stored.
        package var payload: Payload

        /// An entry.
        package init(event: [UInt8]?, payload: Payload) {
            self.event = event
            self.payload = payload
        }
    }

    /// The default capacity: 1,024 entries.
    package static var defaultCapacity: Int { 1024 }
    /// The default batch limit: 256 events in one transaction.
    package static var defaultBatchLimit: Int { 256 }

    /// How many entries wait at most before a feeder waits.
    package let capacity: Int
    /// The most entries stored in one transaction.
    package let batchLimit: Int

    private let queue: WaitableQueue<ReportQueueEntries<Payload>>
    private let store: @Sendable ([[UInt8]]) async throws(EventReportError) -> Void

    /// A queue whose events `reporter` stores.
    package convenience init(
        reporter: EventReporter, capacity: Int = defaultCapacity, batchLimit: Int = defaultBatchLimit
    ) {
        self.init(capacity: capacity, batchLimit: batchLimit) { (events) throws(EventReportError) in
            try await reporter.record(encoded: events)
        }
    }

    /// A queue whose events `store` stores, all of its argument in one transaction or none.
    init(capacity: Int, batchLimit: Int, store: @escaping @Sendable ([[UInt8]]) async throws(EventReportError) -> Void)
    {
        let entries = ReportQueueEntries<Payload>(capacity: capacity, batchLimit: batchLimit)
        self.capacity = entries.capacity
        self.batchLimit = entries.batchLimit
        self.store = store
        queue = WaitableQueue(entries)
    }

    /// Queues `entry`, waiting while the queue is full. Returns false, the entry not queued,
    /// when the queue takes no more (finished, or a batch could not be stored) or the calling
    /// task was cancelled.
    package func append(_ entry: Entry) async -> Bool {
        while true {
            let queued = queue.update { entries -> Bool? in
                if entries.append(entry) { return true }
                if entries.isClosed { return false }
                entries.waitingFeeders += 1
                return nil
            }
            if let queued { return queued }
            await queue.wait { $0.admitsFeeder }
            queue.update { $0.waitingFeeders -= 1 }
            if Task.isCancelled { return false }
        }
    }

    /// Takes no more entries; the committer still gets those queued, then the end.
    package func finish() {
        queue.update { $0.finish() }
    }

    /// The committer's step: waits for entries, takes those queued (at most ``batchLimit``),
    /// stores their events in one transaction and returns their payloads, in order. Nil at the
    /// end (finished and everything handed back) or when the calling task is cancelled.
    ///
    /// - Throws: what storing threw; nothing of the batch was stored, and the queue lets go of
    ///   what waits in it and takes nothing more.
    package func commitNext() async throws(EventReportError) -> [Payload]? {
        guard let batch = await queue.next() else { return nil }
        let events = batch.compactMap(\.event)
        if !events.isEmpty {
            do {
                try await store(events)
            } catch {
                queue.update { $0.abandon() }
                throw error
            }
        }
        return batch.map(\.payload)
    }

    /// Feeders waiting for room now.
    var waitingFeeders: Int { queue.read { $0.waitingFeeders } }
    /// Entries waiting now.
    var count: Int { queue.read { $0.count } }
}
