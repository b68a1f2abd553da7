import CastDiscovery
@testable import CastScanCLI
import CastScanServing
import Foundation
import Testing

@Suite struct FleetMetricsTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_100)

    private func fleet(_ devices: [CastDevice], gone: [CastDevice] = []) -> Fleet {
        var fleet = Fleet(
            backend: "mdns", reason: "test", started: Self.now - 100, forgetAfter: .seconds(600), goneLimit: 100)
        fleet.list(devices + gone, at: Self.now - 50)
        fleet.list(devices, at: Self.now - 20)
        fleet.backendState = .running
        return fleet
    }

    private func family(_ name: String, in families: [MetricFamily]) throws -> MetricFamily {
        try #require(families.first { $0.name == name }, "no \(name)")
    }

    @Test func devicesByKindUpAndGone() throws {
        let families = FleetMetrics.families(
            fleet([FleetTests.device(1, busy: true), FleetTests.device(2)], gone: [FleetTests.device(3)]),
            at: Self.now, maxDevices: 10)
        let byKind = try family("cast_devices", in: families)
        #expect(byKind.samples.count == CastDeviceKind.allCases.count)
        #expect(byKind.samples.first { $0.labels == [.init("kind", "video")] }?.value == 2)
        let up = try family("cast_device_up", in: families).samples
        #expect(up.map(\.value) == [1, 1, 0])
        #expect(up[2].labels.first { $0.name == "name" }?.value == "Device 3")
        #expect(try family("cast_device_busy", in: families).samples.map(\.value) == [1, 0, 0])
        let lastSeen = try family("cast_device_last_seen_timestamp_seconds", in: families).samples.map(\.value)
        #expect(
            lastSeen == [
                Self.now.timeIntervalSince1970, Self.now.timeIntervalSince1970, (Self.now - 20).timeIntervalSince1970,
            ])
        #expect(try family("cast_discovery_up", in: families).samples.map(\.value) == [1])
        #expect(try family("cast_devices_not_exported", in: families).samples.map(\.value) == [0])
        // No counters from a backend that keeps none, no spool without --report.
        #expect(
            families.allSatisfy { $0.name != "cast_mdns_packets_received" && $0.name != "cast_report_pending_events" })
    }

    @Test func seriesPastMaxDevicesAreCounted() throws {
        let families = FleetMetrics.families(fleet((0..<7).map { FleetTests.device($0) }), at: Self.now, maxDevices: 5)
        #expect(try family("cast_device_up", in: families).samples.count == 5)
        #expect(try family("cast_device_info", in: families).samples.count == 5)
        #expect(try family("cast_devices_not_exported", in: families).samples.map(\.value) == [2])
        // The count by kind still counts every device.
        #expect(try family("cast_devices", in: families).samples.reduce(0) { $0 + $1.value } == 7)
    }

    @Test func countersWhenTheBackendKeepsThem() throws {
        var fleet = fleet([])
        var statistics = BackendStatistics()
        statistics.packetsReceived = 12
        statistics.queriesSent = 3
        fleet.statistics = statistics
        let families = FleetMetrics.families(fleet, at: Self.now, maxDevices: 5)
        let received = try family("cast_mdns_packets_received", in: families)
        #expect(received.kind == .counter && received.samples.map(\.value) == [12])
        let text = MetricsExposition.render(families, format: .prometheusText)
        #expect(text.contains("\ncast_mdns_queries_sent_total 3\n"))
    }

    @Test func labelsAreSafeAndBounded() {
        #expect(FleetMetrics.label("a\u{1B}[2Jb\u{202E}") == "a\\e[2Jb\\u{202E}")
        let long = FleetMetrics.label(String(repeating: "x", count: 10_000))
        #expect(long.count == 256 && long.hasSuffix("…"))
    }
}
