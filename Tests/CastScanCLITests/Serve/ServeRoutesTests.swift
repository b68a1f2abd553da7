@testable import CastScanCLI
import CastScanServing
import CastTestSupport
import Foundation
import Testing

@Suite struct ServeRoutesTests {
    private static let started = Date(timeIntervalSince1970: 1_800_000_000)

    private func routes(running: Bool = true, scanned: Bool = true) -> ServeRoutes {
        var fleet = Fleet(
            backend: "mdns", reason: "test", started: Self.started, forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1), FleetTests.device(2)], at: Self.started)
        if running { fleet.backendState = .running }
        fleet.firstScanDone = scanned
        return ServeRoutes(monitor: FleetMonitor(fleet), maxDevices: 10)
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    private func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    @Test func methodsOtherThanGetAndHeadAre405WithAllow() {
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "get"] {
            let response = routes().respond(to: HTTPRequest(method: method, path: "/metrics"))
            #expect(response.status == 405, "\(method)")
            #expect(response.headers.contains { $0.name == "Allow" && $0.value == "GET, HEAD" })
        }
        #expect(routes().respond(to: HTTPRequest(method: "HEAD", path: "/metrics")).status == 200)
    }

    @Test func thePageHasItsPolicyAndNoCaching() {
        let page = routes().respond(to: HTTPRequest(method: "GET", path: "/"))
        #expect(page.status == 200 && page.contentType == "text/html; charset=utf-8")
        #expect(
            page.headers.contains {
                $0 == (name: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'")
            })
        #expect(page.headers.contains { $0 == (name: "Cache-Control", value: "no-store") })
    }

    @Test func healthFollowsTheBackend() {
        let up = routes().respond(to: HTTPRequest(method: "GET", path: "/healthz"))
        #expect(
            up.status == 200
                && String(decoding: up.body, as: UTF8.self) == "ok: discovery running (backend mdns, 2 devices)\n")
        let down = routes(running: false).respond(to: HTTPRequest(method: "GET", path: "/healthz"))
        #expect(
            down.status == 503 && String(decoding: down.body, as: UTF8.self) == "unavailable: the backend is starting\n"
        )
    }

    @Test func metricsFormatByAccept() {
        let open = routes().respond(
            to: HTTPRequest(method: "GET", path: "/metrics", accept: "application/openmetrics-text"))
        #expect(open.contentType == ExpositionFormat.openMetrics.contentType)
        #expect(String(decoding: open.body, as: UTF8.self).hasSuffix("# EOF\n"))
        let text = routes().respond(to: HTTPRequest(method: "GET", path: "/metrics"))
        #expect(text.contentType == ExpositionFormat.prometheusText.contentType)
        #expect(routes().respond(to: HTTPRequest(method: "GET", path: "/metrics/")).status == 404)
    }

    @Test("/-/healthy answers while the process does; /-/ready once discovery is up and its first scan ended")
    func healthyAndReady() {
        for (running, scanned) in [(true, true), (true, false), (false, true), (false, false)] {
            let routes = routes(running: running, scanned: scanned)
            #expect(routes.respond(to: HTTPRequest(method: "GET", path: "/-/healthy")).status == 200)
            let ready = routes.respond(to: HTTPRequest(method: "GET", path: "/-/ready"))
            #expect(ready.status == (running && scanned ? 200 : 503), "running \(running), scanned \(scanned)")
        }
        let starting = routes(running: true, scanned: false).respond(to: HTTPRequest(method: "GET", path: "/-/ready"))
        #expect(text(starting) == "not ready: the first scan has not ended\n")
    }

    @Test("/sd: one target group per listed device, its address and port, __meta_cast_ labels")
    func serviceDiscovery() throws {
        let response = routes().respond(to: HTTPRequest(method: "GET", path: "/sd"))
        #expect(response.status == 200 && response.contentType == "application/json")
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(groups.count == 2)
        #expect(groups.first?["targets"] as? [String] == ["10.0.0.2:8009"])
        let labels = try #require(groups.first?["labels"] as? [String: String])
        #expect(labels["__meta_cast_device_name"] == "Device 1")
        #expect(labels["__meta_cast_device_model"] == "Chromecast")
        #expect(labels["__meta_cast_device_unique_id"] == "googlecast:" + String(format: "%032x", 1))
        #expect(labels["__meta_cast_device_port"] == "8009")
        #expect(labels.keys.allSatisfy { $0.hasPrefix("__meta_cast_device_") })
    }

    @Test("gzip only for a client that asks; Vary names what chose the answer; the body is the same")
    func gzip() throws {
        let routes = routes()
        let at = Self.started.addingTimeInterval(5)
        for path in ["/metrics", "/devices", "/sd"] {
            let plain = routes.respond(to: HTTPRequest(method: "GET", path: path), at: at)
            let compressed = routes.respond(
                to: HTTPRequest(method: "GET", path: path, headers: ["Accept-Encoding": "gzip"]), at: at)
            let refused = routes.respond(
                to: HTTPRequest(method: "GET", path: path, headers: ["Accept-Encoding": "gzip;q=0"]), at: at)
            #expect(header(plain, "Content-Encoding") == nil && header(refused, "Content-Encoding") == nil)
            #expect(header(compressed, "Content-Encoding") == "gzip", "\(path)")
            #expect(header(plain, "Vary")?.contains("Accept-Encoding") == true, "\(path)")
            let (unzipped, status) = try GzipTestSupport.gunzip(compressed.body)
            #expect(status == 0)
            if path != "/metrics" {
                #expect(Array(unzipped) == plain.body, "\(path)")
            } else {
                // The counts of requests before it differ; the fleet's part is the same.
                let expected = text(plain).split(separator: "\n").filter { !$0.contains("cast_scan_http_requests") }
                let got = String(decoding: unzipped, as: UTF8.self).split(separator: "\n")
                    .filter { !$0.contains("cast_scan_http_requests") && !$0.hasPrefix("process_") }
                #expect(got == expected.filter { !$0.hasPrefix("process_") })
            }
        }
    }

    @Test("/metrics says how many requests each handler answered, with which code, and the process_ families")
    func selfMetrics() {
        let routes = routes()
        _ = routes.respond(to: HTTPRequest(method: "GET", path: "/nowhere"))
        _ = routes.respond(to: HTTPRequest(method: "POST", path: "/metrics"))
        _ = routes.respond(to: HTTPRequest(method: "GET", path: "/-/ready"))
        let body = text(routes.respond(to: HTTPRequest(method: "GET", path: "/metrics")))
        #expect(body.contains("cast_scan_http_requests_total{handler=\"other\",code=\"404\"} 1\n"))
        #expect(body.contains("cast_scan_http_requests_total{handler=\"/metrics\",code=\"405\"} 1\n"))
        #expect(body.contains("cast_scan_http_requests_total{handler=\"/-/ready\",code=\"200\"} 1\n"))
        #expect(body.contains("process_start_time_seconds 1800000000\n"))
        #expect(body.contains("# TYPE cast_device_info gauge\n"))
        let open = text(
            routes.respond(to: HTTPRequest(method: "GET", path: "/metrics", accept: "application/openmetrics-text")))
        #expect(open.contains("# TYPE cast_device info\n") && open.contains("\ncast_device_info{"))
    }
}
