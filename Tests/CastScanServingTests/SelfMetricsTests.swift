import CastScanServing
import Foundation
import Testing

@Suite("What the server says of itself")
struct SelfMetricsTests {
    @Test("process_* families: the standard names, plausible values, the start time given")
    func process() throws {
        let started = Date(timeIntervalSince1970: 1_765_000_000.75)
        let families = ProcessMetrics.families(started: started)
        let byName = Dictionary(families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in [
            "process_cpu_seconds", "process_resident_memory_bytes", "process_virtual_memory_bytes",
            "process_open_fds", "process_max_fds", "process_start_time_seconds",
        ] {
            #expect(byName[name]?.samples.count == 1, "\(name)")
        }
        #expect(byName["process_cpu_seconds"]?.kind == .counter)
        #expect(byName["process_start_time_seconds"]?.samples.first?.value == 1_765_000_000)
        let resident = try #require(byName["process_resident_memory_bytes"]?.samples.first?.value)
        let virtual = try #require(byName["process_virtual_memory_bytes"]?.samples.first?.value)
        #expect(resident > 1024 * 1024 && resident <= virtual)
        // This test holds stdin, stdout and stderr at least.
        #expect((byName["process_open_fds"]?.samples.first?.value ?? 0) >= 3)
        let text = MetricsExposition.render(families, format: .prometheusText)
        #expect(text.contains("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total "))
    }

    @Test("requests by handler and code; an unknown path is one handler, codes are clamped")
    func requests() {
        let counts = HTTPRequestCounts(handlers: ["/metrics", "/"])
        counts.count(handler: "/metrics", code: 200)
        counts.count(handler: "/metrics", code: 200)
        counts.count(handler: "/nope", code: 404)
        counts.count(handler: "/other-nope", code: 404)
        counts.count(handler: "/", code: 9999)
        let family = counts.family()
        #expect(family.kind == .counter && family.name == "cast_scan_http_requests")
        #expect(
            MetricsExposition.renderFamilies([family], format: .prometheusText)
                == """
                # HELP cast_scan_http_requests_total HTTP requests answered, by handler and status code.
                # TYPE cast_scan_http_requests_total counter
                cast_scan_http_requests_total{handler="/",code="599"} 1
                cast_scan_http_requests_total{handler="/metrics",code="200"} 2
                cast_scan_http_requests_total{handler="other",code="404"} 2

                """)
    }

    @Test("an info family: OpenMetrics' info type, named without _info; a gauge in the text format")
    func info() {
        let family = MetricFamily(
            "demo_build_info", help: "Build.", kind: .info, samples: [.init([.init("version", "1")], value: 1)])
        #expect(
            MetricsExposition.render([family], format: .openMetrics)
                == "# HELP demo_build Build.\n# TYPE demo_build info\ndemo_build_info{version=\"1\"} 1\n# EOF\n")
        #expect(
            MetricsExposition.render([family], format: .prometheusText)
                == "# HELP demo_build_info Build.\n# TYPE demo_build_info gauge\ndemo_build_info{version=\"1\"} 1\n")
    }

    @Test("socket activation: nothing without LISTEN_FDS or for another process; bad counts refused")
    func socketActivation() throws {
        #expect(try SocketActivation.sockets(environment: [:], processID: 42).isEmpty)
        #expect(
            try SocketActivation.sockets(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "41"], processID: 42).isEmpty)
        for environment in [
            ["LISTEN_FDS": "x", "LISTEN_PID": "42"], ["LISTEN_FDS": "-1"], ["LISTEN_FDS": "65"],
            ["LISTEN_FDS": "1", "LISTEN_PID": "0"],
        ] {
            #expect(throws: HTTPServerError.self, "\(environment)") {
                try SocketActivation.sockets(environment: environment, processID: 42)
            }
        }
        #expect(
            try SocketActivation.sockets(environment: ["LISTEN_FDS": "0", "LISTEN_PID": "42"], processID: 42).isEmpty)
    }
}
