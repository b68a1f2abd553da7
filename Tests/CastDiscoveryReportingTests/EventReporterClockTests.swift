@testable import CastDiscoveryReporting
import CastDiscovery
import CastTestSupport
import Testing

/// The reports of an ``EventReporter`` as they come, read by a task of their own, so that a
/// test can wait for them from a thread (``Eventually``).
private final class ReportLog: Sendable {
    private let reports = LockedValue<[EventReport]>([])

    /// Reads `reporter`'s reports until they end (``EventReporter/finish()``), when the task does.
    func read(_ reporter: EventReporter) -> Task<Void, Never> {
        Task { for await report in reporter.reports { self.reports.withLock { $0.append(report) } } }
    }

    /// The drops reported so far, each report's count.
    var drops: [Int] {
        reports.withLock { $0.compactMap { if case .dropped(let count) = $0 { count } else { nil } } }
    }

    /// The results of the sends reported so far.
    var sends: [SendResult] {
        reports.withLock { $0.compactMap { if case .sent(let result) = $0 { result } else { nil } } }
    }
}

@Suite("Event reporter: retries and the drop reports' window wait on the reporter's clock", .timeLimit(.minutes(10)))
struct EventReporterClockTests {
    /// How long a test waits for what a thread of the reporter does; never reached when it works.
    static let patience = Duration.seconds(120)

    @Test("after a failed send nothing is tried again until the clock reaches the schedule's delay; then it is")
    func retryWaitsForTheSchedule() async throws {
        let directory = try SpoolDirectory()
        // Port 9 (discard) on loopback: nothing listens there in the test environment.
        let collector = try EventCollector(url: "http://127.0.0.1:9/events")
        // Each retry comes 5 to 10 s after the failure (the upper half of 10 s), exactly when the
        // seed says.
        let retry = RetrySchedule(initialDelay: .seconds(10), maximumDelay: .seconds(10))
        var seeded = JitterGenerator(seed: 2024)
        let firstRetry = retry.delay(afterFailures: 1, jitter: &seeded)
        let secondRetry = retry.delay(afterFailures: 2, jitter: &seeded)
        try #require(firstRetry != secondRetry && firstRetry > .seconds(5) && secondRetry > .seconds(5))
        let clock = ManualClock()
        let configuration = EventReporter.Configuration(
            collector: collector, spoolDirectory: directory.path, retry: retry, timeout: .seconds(2))
        let reporter = try EventReporter(
            configuration: configuration, clock: clock, jitter: JitterGenerator(seed: 2024))
        let log = ReportLog()
        let reading = log.read(reporter)
        try await reporter.record(json: Array("{\"n\":1}".utf8))
        await reporter.startSending()

        // The event is there: the sender gathers its burst on the clock, then tries and fails.
        let gathering = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        try #require(gathering, "the sender does not wait on the reporter's clock")
        #expect(log.sends.isEmpty, "nothing is sent before the burst is gathered")
        clock.advance(by: EventReporter.gathering)
        let failed = await Eventually.wait(timeout: Self.patience) { log.sends.count == 1 }
        try #require(failed, "the first try did not come")
        #expect(log.sends[0].failed == 1 && log.sends[0].error != nil)

        // The retry waits on the clock: a nanosecond short of the seed's delay, still asleep,
        // nothing tried.
        let waiting = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        try #require(waiting, "the retry does not wait on the reporter's clock")
        clock.advance(by: firstRetry - .nanoseconds(1))
        #expect(clock.sleeperCount == 1, "the retry came before the seed's delay")
        #expect(log.sends.count == 1)

        // At the delay: tried again (and failed again, the collector still away).
        clock.advance(by: .nanoseconds(1))
        let retried = await Eventually.wait(timeout: Self.patience) { log.sends.count == 2 }
        #expect(retried, "the retry did not come when the clock reached the delay")
        #expect(log.sends.last?.failed == 1)
        // And waits for the clock again, the seed's second delay.
        let again = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        #expect(again)
        clock.advance(by: secondRetry - .nanoseconds(1))
        #expect(clock.sleeperCount == 1, "the second retry came before the seed's second delay")
        #expect(log.sends.count == 2)

        await reporter.finish()
        await reading.value
        #expect(try await reporter.status().pending == 1, "a failed send keeps the event")
    }

    @Test("a drop is said at once, later ones together when the clock ends its second; a quiet window says nothing")
    func dropWindowOnTheClock() async throws {
        let directory = try SpoolDirectory()
        let clock = ManualClock()
        let configuration = EventReporter.Configuration(
            collector: nil, spoolDirectory: directory.path, limits: SpoolLimits(maximumEvents: 1))
        let reporter = try EventReporter(configuration: configuration, clock: clock)
        let log = ReportLog()
        let reading = log.read(reporter)
        func record(_ count: Int) async throws {
            for index in 0..<count { try await reporter.record(json: Array("{\"n\":\(index)}".utf8)) }
        }

        // The first drop is said at once, and opens the window.
        try await record(2)
        let first = await Eventually.wait(timeout: Self.patience) { log.drops == [1] && clock.sleeperCount == 1 }
        try #require(first, "\(log.drops), \(clock.sleeperCount) asleep")

        // Three more in the window: said together when the clock ends it, not before.
        try await record(3)
        clock.advance(by: .seconds(1) - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "the window ended before its second")
        clock.advance(by: .milliseconds(1))
        let together = await Eventually.wait(timeout: Self.patience) { log.drops == [1, 3] }
        #expect(together, "\(log.drops)")

        // That report opened a window of its own; it ends without drops, and says nothing.
        let second = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        try #require(second, "the report did not open a window on the clock")
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0)
        // So the next drop is said without the clock moving.
        try await record(1)
        let again = await Eventually.wait(timeout: Self.patience) { log.drops == [1, 3, 1] }
        #expect(again, "\(log.drops)")

        await reporter.finish()
        await reading.value
        #expect(log.drops == [1, 3, 1])
    }
}
