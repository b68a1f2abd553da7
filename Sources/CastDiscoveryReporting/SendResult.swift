/// The outcome of one send of stored events to the collector.
public struct SendResult: Sendable, Hashable, Codable {
    /// Events the collector took (a 2xx answer), now removed from the spool.
    public var delivered: Int
    /// Events the send was to deliver and did not: they stay in the spool for the next send.
    public var failed: Int
    /// When the send ended, in seconds since 1970.
    public var time: Double
    /// Why the last batch failed (the HTTP status or the transport's message); nil on success.
    public var error: String?
    /// Events the collector refused even alone as too large (HTTP 413) in this send: set aside
    /// in the spool (``SpoolStatus/refused``), not sent again, and not counted in ``failed``.
    public var refused: Int

    /// Creates a result.
    public init(delivered: Int, failed: Int, time: Double, error: String? = nil, refused: Int = 0) {
        self.delivered = delivered
        self.failed = failed
        self.time = time
        self.error = error
        self.refused = refused
    }
}
