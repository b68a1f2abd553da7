/// When to try again after a failure (an event report's send, a receiver's connection):
/// exponential backoff from ``initialDelay``, doubled after each failure up to ``maximumDelay``,
/// each wait drawn at random from its upper half ("equal jitter"), so that many that failed
/// together do not retry together.
public struct RetrySchedule: Sendable, Hashable {
    /// The wait after the first failure, before jitter (default 1 s).
    public var initialDelay: Duration
    /// The cap on the wait, before jitter (default 60 s).
    public var maximumDelay: Duration

    /// Creates a schedule; the delays are at least 10 ms and the cap at least the first delay.
    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(60)) {
        self.initialDelay = max(.milliseconds(10), initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
    }

    /// The wait before the next try after `failures` failures in a row (1 for the first),
    /// within `delay/2..<delay` of the capped exponential delay, the jitter drawn from `jitter`.
    public func delay(afterFailures failures: Int, jitter: inout JitterGenerator) -> Duration {
        let exponent = min(max(0, failures - 1), 40)
        let uncapped = initialDelay.seconds * Double(1 << exponent)
        let capped = min(uncapped, maximumDelay.seconds)
        return .seconds(clamping: capped / 2 + capped / 2 * jitter.nextFraction())
    }
}
