import CastDiscovery

/// What a ``ReportQueue`` holds: the entries waiting to be stored, in order, at most
/// `capacity` of them; nothing is ever dropped to make room (a feeder waits for it instead).
struct ReportQueueEntries<Payload: Sendable>: WaitableQueueStorage {
    let capacity: Int
    /// The most entries taken at once: one transaction's worth.
    let batchLimit: Int
    private var entries: [ReportQueue<Payload>.Entry] = []
    /// No entry is taken any more: the feeder finished, or storing failed.
    private(set) var isClosed = false
    /// Feeders waiting for room now.
    var waitingFeeders = 0

    init(capacity: Int, batchLimit: Int) {
        self.capacity = max(1, capacity)
        self.batchLimit = max(1, batchLimit)
    }

    /// How many entries wait.
    var count: Int { entries.count }
    /// Whether a feeder can go on: there is room, or nothing will be taken any more.
    var admitsFeeder: Bool { isClosed || entries.count < capacity }
    var isEnded: Bool { isClosed && entries.isEmpty }

    /// Queues `entry` when there is room and the queue is open; says whether it did.
    mutating func append(_ entry: ReportQueue<Payload>.Entry) -> Bool {
        guard !isClosed, entries.count < capacity else { return false }
        entries.append(entry)
        return true
    }

    /// The entries waiting now, oldest first, at most ``batchLimit``; nil when none waits.
    mutating func take() -> [ReportQueue<Payload>.Entry]? {
        guard !entries.isEmpty else { return nil }
        let taken = min(batchLimit, entries.count)
        defer { entries.removeFirst(taken) }
        return Array(entries.prefix(taken))
    }

    /// Takes no more entries; those queued are still taken.
    mutating func finish() {
        isClosed = true
    }

    /// Takes no more entries and lets go of those queued, unstored: after a failure to store.
    mutating func abandon() {
        isClosed = true
        entries = []
    }
}
