/// How much an event spool keeps: past either bound the oldest undelivered events are dropped,
/// and counted.
public struct SpoolLimits: Sendable, Hashable {
    /// The most events kept (default 100,000).
    public var maximumEvents: Int
    /// The oldest an event may be (default 30 days).
    public var maximumAge: Duration

    /// Creates limits; `maximumEvents` is at least 1 and `maximumAge` at least one second.
    public init(maximumEvents: Int = 100_000, maximumAge: Duration = .seconds(30 * 24 * 3600)) {
        self.maximumEvents = max(1, maximumEvents)
        self.maximumAge = max(.seconds(1), maximumAge)
    }
}
