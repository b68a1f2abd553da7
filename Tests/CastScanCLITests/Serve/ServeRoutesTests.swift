@testable import CastScanCLI
import CastScanServing
import Foundation
import Testing

@Suite struct ServeRoutesTests {
    private func routes(running: Bool = true) -> ServeRoutes {
        var fleet = Fleet(backend: "mdns", reason: "test", started: Date(), forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1), FleetTests.device(2)], at: Date())
        if running { fleet.backendState = .running }
        return ServeRoutes(monitor: FleetMonitor(fleet), maxDevices: 10)
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
}
