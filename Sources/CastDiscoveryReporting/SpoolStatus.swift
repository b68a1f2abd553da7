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
    /// Pending events past the count or age bound given: the next record or
    /// ``EventReporter/applyLimits()`` drops them (a status drops nothing).
    public var beyondBounds: Int
    /// Events the collector refused one by one as too large (HTTP 413): kept in the spool, not
    /// sent again, and not counted in ``pending``.
    public var refused: Int

    /// Creates a status.
    public init(
        pending: Int, oldestPendingAge: Double?, dropped: Int, lastSend: SendResult?, setAside: [String] = [],
        beyondBounds: Int = 0, refused: Int = 0
    ) {
        self.pending = pending
        self.oldestPendingAge = oldestPendingAge
        self.dropped = dropped
        self.lastSend = lastSend
        self.setAside = setAside
        self.beyondBounds = beyondBounds
        self.refused = refused
    }
}
