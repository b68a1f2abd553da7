/// The clock discovery keeps time with: Swift's `Clock`, on the continuous clock's instants, so
/// that the scan's reducers (``ScanProgress``, the aggregator) take the same instants whatever
/// clock runs them. `ContinuousClock` in use; a ``ManualClock`` in tests, which moves only when
/// told to.
public protocol DiscoveryClock: Clock, Sendable where Instant == ContinuousClock.Instant {}

extension ContinuousClock: DiscoveryClock {}

extension DiscoveryClock {
    /// Sleeps until `duration` from now on this clock.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }
}
