import CastDiscovery
@testable import CastScanCLI
import CastScanServing
import Foundation
import Testing

/// `/metrics` renders its members' series once per fleet revision, and still shows each
/// scrape's process counters and time.
@Suite struct FleetMetricsCacheTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func monitor() -> FleetMonitor {
        var fleet = Fleet(
            backend: "mdns", reason: "test", started: Self.start, forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1), FleetTests.device(2), FleetTests.device(3)], generation: 3, at: Self.start)
        fleet.backendState = .running
        return FleetMonitor(fleet)
    }

    /// The body as it is rendered without a cache.
    private func uncached(_ monitor: FleetMonitor, _ format: ExpositionFormat, at now: Date) -> String {
        MetricsExposition.render(FleetMetrics.families(monitor.snapshot, at: now, maxDevices: 10), format: format)
    }

    @Test(arguments: [ExpositionFormat.prometheusText, .openMetrics])
    func renderedOncePerGeneration(format: ExpositionFormat) {
        let monitor = monitor()
        let cache = FleetMetricsCache()
        let first = cache.body(of: monitor, format: format, at: Self.start + 1, maxDevices: 10).text
        #expect(first == uncached(monitor, format, at: Self.start + 1))
        #expect(cache.renderCount == 1)

        // Another scrape of the same generation: not rendered again, but its time and the
        // process's counters are its own.
        monitor.update {
            $0.missedEvents = 7
            $0.backendState = .daemonLost
        }
        let second = cache.body(of: monitor, format: format, at: Self.start + 5, maxDevices: 10).text
        #expect(cache.renderCount == 1)
        #expect(second == uncached(monitor, format, at: Self.start + 5))
        #expect(second.contains("cast_discovery_up 0") && second.contains(" 7\n"))

        // A change of the list: a new generation, rendered again.
        let applied = monitor.update {
            $0.apply(.removed(FleetTests.device(1), at: 0), generation: 4, at: Self.start + 6)
        }
        #expect(applied)
        let third = cache.body(of: monitor, format: format, at: Self.start + 7, maxDevices: 10).text
        #expect(cache.renderCount == 2)
        #expect(third == uncached(monitor, format, at: Self.start + 7))

        // Forgetting a device that went changes the series too.
        monitor.update { $0.forget(at: Self.start + 1000) }
        let fourth = cache.body(of: monitor, format: format, at: Self.start + 1001, maxDevices: 10).text
        #expect(cache.renderCount == 3)
        #expect(fourth == uncached(monitor, format, at: Self.start + 1001))
    }
}
