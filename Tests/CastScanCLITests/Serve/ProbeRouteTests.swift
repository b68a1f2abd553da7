import CastChannel
@testable import CastScanCLI
import CastScanServing
import Foundation
import Synchronization
import Testing

/// `/probe?target=`: only listed devices or `--probe-allow` ranges, its budget from the scrape's
/// time-out, the answer in the exposition format, given later.
@Suite("serve's /probe, blackbox-style")
struct ProbeRouteTests {
    /// What the fake probe was asked.
    final class Asked: Sendable {
        let calls = Mutex<[(host: String, port: UInt16, timeout: Duration, authenticate: Bool)]>([])
    }

    private func route(allowed: [String] = [], asked: Asked = Asked(), reachable: Bool = true) -> ProbeRoute {
        var fleet = Fleet(
            backend: "mdns", reason: "test", started: Date(timeIntervalSince1970: 1_800_000_000),
            forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1), FleetTests.device(2)], at: Date(timeIntervalSince1970: 1_800_000_000))
        fleet.backendState = .running
        return ProbeRoute(
            monitor: FleetMonitor(fleet), allowed: allowed.compactMap(AddressRange.init), verifier: nil,
            clock: ContinuousClock(), wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
            probe: { host, port, timeout, authenticate in
                asked.calls.withLock { $0.append((host, port, timeout, authenticate)) }
                var result = ReceiverProbeResult(host: host, port: port)
                if reachable {
                    result.connectDuration = .milliseconds(3)
                    result.status = try? ReceiverMessage(
                        json: #"{"type":"RECEIVER_STATUS","status":{"volume":{"level":0.5,"muted":false}}}"#
                    ).status
                } else {
                    result.error = CastChannelError(.refused, "connection refused")
                }
                return result
            })
    }

    /// The answer to `target` (with `headers`): at once, or what `.later` gave.
    private func answer(_ route: ProbeRoute, _ target: String?, headers: [String: String] = [:]) async -> HTTPResponse {
        let request = HTTPRequest(
            method: "GET", path: "/probe", query: target.map { ["target": $0] } ?? [:], headers: headers)
        switch route.answer(request) {
        case .now(let response): return response
        case .later(let start):
            return await withCheckedContinuation { continuation in
                let once = Mutex(false)
                start { response in
                    guard
                        once.withLock({ done in
                            defer { done = true }; return !done
                        })
                    else { return }
                    continuation.resume(returning: response)
                }
            }
        }
    }

    @Test("a listed device's address and port is probed; the answer has probe_success and its unique_id")
    func listed() async throws {
        let asked = Asked()
        let response = await answer(route(asked: asked), "10.0.0.2:8009")
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 200, "\(body)")
        #expect(body.contains("\nprobe_success 1\n"))
        #expect(body.contains("# TYPE probe_duration_seconds gauge\nprobe_duration_seconds "))
        #expect(body.contains("cast_device_reachable{unique_id=\"googlecast:" + String(format: "%032x", 1) + "\"} 1"))
        #expect(body.contains("cast_device_volume_level{unique_id="))
        #expect(!body.contains("cast_device_channel_failures"))
        let calls = asked.calls.withLock { $0 }
        #expect(calls.count == 1 && calls.first?.host == "10.0.0.2" && calls.first?.port == 8009)
        #expect(calls.first?.timeout == ProbeRoute.defaultTimeout && calls.first?.authenticate == false)
        // The port defaults to 8009.
        #expect(await answer(route(), "10.0.0.2").status == 200)
    }

    @Test("an unreachable target: probe_success 0, still 200 (the probe ran)")
    func unreachable() async {
        let response = await answer(route(reachable: false), "10.0.0.3:8009")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\nprobe_success 0\n"))
    }

    @Test(
        "targets not listed and not allowed are 403; malformed ones 400; nothing is probed",
        arguments: [
            ("10.0.0.9:8009", 403), ("10.0.0.2:8010", 403), ("cast.local:8009", 400), ("10.0.0.2:0", 400),
            ("[fd00::1", 400), ("10.0.0.2:99999", 400), ("", 400),
        ])
    func refused(target: String, status: Int) async {
        let asked = Asked()
        #expect(await answer(route(asked: asked), target).status == status)
        #expect(asked.calls.withLock { $0.isEmpty })
    }

    @Test("no target is 400; --probe-allow admits a range, listed or not, of its family only")
    func allowed() async {
        #expect(await answer(route(), nil).status == 400)
        let route = route(allowed: ["192.168.7.0/24", "fd00::/8"])
        #expect(await answer(route, "192.168.7.44:8009").status == 200)
        #expect(await answer(route, "[fd12::5]:8009").status == 200)
        #expect(await answer(route, "192.168.8.1:8009").status == 403)
        #expect(await answer(route, "[fe80::1]:8009").status == 403)
    }

    @Test(
        "the budget: the scrape's time-out less half a second, within bounds; a bad header is 400",
        arguments: [
            ("10", Duration.milliseconds(9500)), ("0.2", .milliseconds(100)), ("1000", .seconds(60)),
            ("2.75", .milliseconds(2250)),
        ])
    func budget(header: String, expected: Duration) async {
        let asked = Asked()
        let response = await answer(
            route(asked: asked), "10.0.0.2", headers: ["X-Prometheus-Scrape-Timeout-Seconds": header])
        #expect(response.status == 200)
        #expect(asked.calls.withLock { $0.first?.timeout } == expected)
    }

    @Test("a scrape time-out that is not a positive number is 400", arguments: ["-1", "0", "nan", "inf", "ten"])
    func badBudget(header: String) async {
        let response = await answer(route(), "10.0.0.2", headers: ["X-Prometheus-Scrape-Timeout-Seconds": header])
        #expect(response.status == 400)
    }

    @Test("OpenMetrics when the scraper asks for it")
    func openMetrics() async {
        let response = await answer(route(), "10.0.0.2", headers: ["Accept": "application/openmetrics-text"])
        #expect(response.contentType == ExpositionFormat.openMetrics.contentType)
        #expect(String(decoding: response.body, as: UTF8.self).hasSuffix("# EOF\n"))
    }
}
