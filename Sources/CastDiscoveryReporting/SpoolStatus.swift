/// What an event spool holds: the pending events, what its bounds dropped, the last send.
public struct SpoolStatus: Sendable, Hashable, Codable {
    /// Events stored and not yet delivered.
    public var pending: Int
    /// The age of the oldest pending event, in seconds; nil when nothing is pending.
    public var oldestPendingAge: Double?
    /// Events the count and age bounds have dropped, over the spool's life.
    public var dropped: Int
    /// The last send's result; nil before the first.
    public var lastSend: SendResult?
    /// Damaged spool files set aside (renamed) when the spool was opened this time.
    public var setAside: [String]

    /// Creates a status.
    public init(pending: Int, oldestPendingAge: Double?, dropped: Int, lastSend: SendResult?, setAside: [String] = []) {
        self.pending = pending
        self.oldestPendingAge = oldestPendingAge
        self.dropped = dropped
        self.lastSend = lastSend
        self.setAside = setAside
    }
}
