import CastDiscovery
import CastDiscoveryReporting
import CastTestSupport
import Foundation
import Testing

@testable import CastScanCLI

/// serve's tick on a ``ManualClock``: nothing happens until the clock reaches the interval,
/// then gone devices are forgotten by their time and the report spool's counts are read.
@Suite("ServeTicker", .timeLimit(.minutes(10)))
struct ServeTickerTests {
    /// How long a test waits for what the ticker's task does; never reached when it works.
    static let patience = Duration.seconds(120)

    @Test("ticks come on the clock, none before the interval: they forget what went long ago and read the spool")
    func ticksOnTheClock() async throws {
        let clock = ManualClock()
        let start = clock.now
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        // The time of day moves with the clock.
        let date: @Sendable () -> Date = { started.addingTimeInterval((clock.now - start).seconds) }
        let monitor = FleetMonitor(
            Fleet(backend: "replay", reason: "test", started: started, forgetAfter: .seconds(5), goneLimit: 10))
        monitor.update {
            $0.list([FleetTests.device(1)], at: started)
            $0.list([], at: started)
        }
        #expect(monitor.snapshot.gone.count == 1)
        let directory = try TestDirectory()
        let reporter = try EventReporter(configuration: .init(collector: nil, spoolDirectory: directory.path("spool")))
        try await reporter.record(json: Array("{\"n\":1}".utf8))

        let ticker = ServeTicker(monitor: monitor, reporter: reporter, interval: .seconds(1), clock: clock, date: date)
        let ticking = Task { await ticker.run() }
        defer { ticking.cancel() }

        // Asleep on the clock; short of the interval, still asleep, and nothing done.
        let asleep = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        try #require(asleep, "the tick does not wait on its clock")
        clock.advance(by: .seconds(1) - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "the tick came before its interval")
        #expect(monitor.snapshot.report == nil)

        // At the interval: the spool is read; the device gone a second ago is kept.
        clock.advance(by: .milliseconds(1))
        let read = await Eventually.wait(timeout: Self.patience) { monitor.snapshot.report?.pending == 1 }
        #expect(read, "the tick did not read the spool")
        #expect(monitor.snapshot.gone.count == 1, "forgotten before the forget-after time")

        // The ticks at 2, 3 and 4 s keep it; the one at 5 s forgets it (and then reads the spool).
        for _ in 2...4 {
            let next = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
            try #require(next, "the ticks stopped")
            clock.advance(by: .seconds(1))
        }
        let fourth = await Eventually.wait(timeout: Self.patience) { clock.sleeperCount == 1 }
        try #require(fourth, "the ticks stopped")
        #expect(monitor.snapshot.gone.count == 1, "forgotten before the forget-after time")
        try await reporter.record(json: Array("{\"n\":2}".utf8))
        clock.advance(by: .seconds(1))
        let fifth = await Eventually.wait(timeout: Self.patience) { monitor.snapshot.report?.pending == 2 }
        #expect(fifth, "the tick at 5 s did not come")
        #expect(monitor.snapshot.gone.isEmpty, "the device was not forgotten at the forget-after time")

        ticking.cancel()
        await ticking.value
        await reporter.finish()
    }
}
