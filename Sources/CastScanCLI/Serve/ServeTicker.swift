import CastDiscovery
import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `serve`'s housekeeping, once an interval on a clock: the devices gone longer than the
/// forget-after time are forgotten, and the report spool's counts (with `--report`) are read
/// into the fleet.
struct ServeTicker: Sendable {
    let monitor: FleetMonitor
    /// The reporter whose spool counts are shown; nil without `--report`.
    let reporter: EventReporter?
    /// The time from the end of one tick to the next.
    let interval: Duration
    /// What the interval is kept with: a ``ManualClock`` in tests.
    let clock: any DiscoveryClock
    /// The time of day a tick forgets at: the fleet's times are dates.
    let date: @Sendable () -> Date

    init(
        monitor: FleetMonitor, reporter: EventReporter?, interval: Duration = .seconds(1),
        clock: any DiscoveryClock = ContinuousClock(), date: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.monitor = monitor
        self.reporter = reporter
        self.interval = interval
        self.clock = clock
        self.date = date
    }

    /// Ticks, each `interval` after the last, until the task is cancelled.
    func run() async {
        while !Task.isCancelled {
            try? await clock.sleep(for: interval)
            guard !Task.isCancelled else { return }
            await tick()
        }
    }

    /// One tick: forgets what went long enough ago, then reads the spool's counts.
    func tick() async {
        let now = date()
        monitor.update { $0.forget(at: now) }
        if let reporter, let status = try? await ReportOptions.status(reporter) {
            monitor.update { $0.report = status }
        }
    }
}
