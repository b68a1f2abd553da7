import CastChannel
import CastDiscovery
import CastScanServing
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /probe?target=ADDRESS[:PORT]`, as blackbox_exporter probes: asks one receiver over its
/// Cast channel now and answers `probe_success` (1 when it answered with its status),
/// `probe_duration_seconds` and the channel's per-device families for that target (labelled
/// with its `unique_id` when `serve` lists it), the device-authentication verdict among them.
///
/// Bounded: a target must be the address and port of a listed device, or in a `--probe-allow`
/// range, so that the endpoint cannot scan the network for whoever reaches it; at most
/// ``maximumConcurrent`` probes run at once (more are 503); each has the scraper's
/// `X-Prometheus-Scrape-Timeout-Seconds` less ``offset`` (``defaultTimeout`` without it, at most
/// ``maximumTimeout``). Probes run on the channel's own threads, never on the server's.
final class ProbeRoute: Sendable {
    /// Asks one receiver; `ReceiverProbe.probe` outside tests.
    typealias Probe =
        @Sendable (_ host: String, _ port: UInt16, _ timeout: Duration, _ authenticate: Bool) async
        -> ReceiverProbeResult

    static let maximumConcurrent = 16
    static let defaultTimeout = Duration.seconds(10)
    static let maximumTimeout = Duration.seconds(60)
    static let minimumTimeout = Duration.milliseconds(100)
    /// What is kept of the scrape's time-out for the answer to travel back (blackbox's default).
    static let offset = Duration.milliseconds(500)

    let monitor: FleetMonitor
    /// `--probe-allow`: ranges probed whether listed or not.
    let allowed: [AddressRange]
    /// Nil with `--no-auth`.
    let verifier: DeviceAuthVerifier?
    let probe: Probe
    let clock: ContinuousClock
    let wallClock: @Sendable () -> Date
    private let running = Atomic(0)

    init(
        monitor: FleetMonitor, allowed: [AddressRange], verifier: DeviceAuthVerifier?, clock: ContinuousClock,
        wallClock: @escaping @Sendable () -> Date,
        probe: @escaping Probe = { await ReceiverProbe.probe(host: $0, port: $1, timeout: $2, authenticate: $3) }
    ) {
        self.monitor = monitor
        self.allowed = allowed
        self.verifier = verifier
        self.clock = clock
        self.wallClock = wallClock
        self.probe = probe
    }

    /// The answer to `request`: at once when it is refused, later when a probe runs.
    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        guard let text = request.query["target"] else {
            return .now(.text(400, "give a target: /probe?target=ADDRESS[:PORT]\n"))
        }
        guard let target = ProbeTarget(text) else {
            return .now(
                .text(
                    400, "target must be ADDRESS[:PORT] with a literal address, e.g. 10.0.0.5:8009 or [fd00::5]:8009\n")
            )
        }
        let listed = monitor.snapshot.listed.first { member in
            member.device.port == target.port && member.device.addresses.contains { $0.ip == target.address }
        }
        guard listed != nil || allowed.contains(where: { $0.contains(target.address) }) else {
            return .now(
                .text(403, "target \(target) is neither a listed device's address and port nor in --probe-allow\n"))
        }
        guard let timeout = Self.timeout(request.header("X-Prometheus-Scrape-Timeout-Seconds")) else {
            return .now(.text(400, "X-Prometheus-Scrape-Timeout-Seconds must be a number of seconds\n"))
        }
        guard running.add(1, ordering: .relaxed).newValue <= Self.maximumConcurrent else {
            running.subtract(1, ordering: .relaxed)
            return .now(.text(503, "too many probes at once (\(Self.maximumConcurrent)); try again\n"))
        }
        let format = ExpositionFormat(accept: request.accept)
        let identity = listed.map { [MetricFamily.Label("unique_id", FleetMetrics.label($0.device.uniqueID))] } ?? []
        return .later { [self] respond in
            Task {
                defer { running.subtract(1, ordering: .relaxed) }
                let start = clock.now
                let result = await probe(target.host, target.port, timeout, verifier != nil)
                let verdict = verifier.flatMap { DeviceAuthCheck.verdict(result, by: $0, at: wallClock()) }
                let body = Self.body(
                    result, verdict: verdict, identity: identity, duration: clock.now - start, format: format)
                respond(
                    HTTPResponse(
                        status: 200, contentType: format.contentType, headers: [("Cache-Control", "no-store")],
                        body: Array(body.utf8)))
            }
        }
    }

    /// The probe's time: the scrape's time-out less the offset, within the bounds; the default
    /// without the header; nil for a header that is not a positive number of seconds.
    static func timeout(_ header: String?) -> Duration? {
        guard let header else { return defaultTimeout }
        guard header.utf8.count <= 32, let seconds = Double(header), seconds.isFinite, seconds > 0 else { return nil }
        let budget = Duration.milliseconds(Int64((min(seconds, 3600) * 1000).rounded(.down))) - offset
        return min(max(budget, minimumTimeout), maximumTimeout)
    }

    /// The exposition of one probe.
    static func body(
        _ result: ReceiverProbeResult, verdict: DeviceAuthVerdict?, identity: [MetricFamily.Label],
        duration: Duration, format: ExpositionFormat
    ) -> String {
        var series = ChannelMetrics.Series()
        series.add(identity: identity, result: result, failures: nil, verdict: verdict, impostorOf: "")
        let families =
            [
                MetricFamily(
                    "probe_success", help: "1 when the receiver answered over its Cast channel with its status.",
                    kind: .gauge, samples: [.init(value: result.isReachable ? 1 : 0)]),
                MetricFamily(
                    "probe_duration_seconds", help: "How long the probe took.", kind: .gauge,
                    samples: [.init(value: duration.seconds)]),
            ] + series.families
        return MetricsExposition.render(families, format: format)
    }
}
