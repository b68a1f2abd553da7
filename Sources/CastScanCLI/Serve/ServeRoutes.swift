import CastChannel
import CastScanServing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `cast-scan serve` answers: `/metrics`, `/devices`, `/sd` (Prometheus' HTTP service
/// discovery), `/-/healthy` (the process answers), `/-/ready` (discovery has a source and its
/// first scan is done), `/healthz` (discovery is up) and the status page `/`. `/metrics`,
/// `/devices` and `/sd` are compressed with gzip for a client that asks for it.
package struct ServeRoutes: Sendable {
    /// The body of `GET /devices`.
    struct DevicesDocument: Encodable {
        var schemaVersion = 1
        var tool = "cast-scan"
        var toolVersion = BuildInfo.description
        var backend: String
        var discoveryUp: Bool
        /// Why discovery is not up; absent while it is.
        var downReason: String?
        /// The devices listed now, as `cast-scan --json` writes them.
        var devices: [DeviceReport]
    }

    /// The paths answered; `cast_scan_http_requests_total`'s handlers.
    static let handlers: Set<String> = [
        "/", "/metrics", "/devices", "/sd", "/probe", "/-/healthy", "/-/ready", "/healthz",
    ]

    let monitor: FleetMonitor
    /// The most devices a page or a scrape holds.
    let maxDevices: Int
    /// `--status`: what each device says over its Cast channel; nil without it.
    var channel: ReceiverStates? = nil
    /// The `/metrics` body's members' part, rendered once per revision of the fleet.
    let metrics = FleetMetricsCache()
    /// The requests answered, by handler and code.
    let requests = HTTPRequestCounts(handlers: handlers)
    /// `/probe`; nil when the server does not probe (404).
    var probe: ProbeRoute? = nil

    /// The routes over `monitor`'s fleet (what the memberwise initializer was, reachable from
    /// the fuzz targets of `Fuzz/`).
    package init(monitor: FleetMonitor, maxDevices: Int, channel: ReceiverStates? = nil) {
        self.monitor = monitor
        self.maxDevices = maxDevices
        self.channel = channel
    }

    /// The answer to `request` at `now`: `/probe` later, the rest at once; counted when given.
    package func answer(_ request: HTTPRequest, at now: Date) -> HTTPAnswer {
        guard request.path == "/probe", request.method == "GET" || request.method == "HEAD", let probe else {
            return .now(respond(to: request, at: now))
        }
        switch probe.answer(request) {
        case .now(let response):
            requests.count(handler: request.path, code: response.status)
            return .now(response)
        case .later(let start):
            let requests = requests
            return .later { respond in
                start { response in
                    requests.count(handler: request.path, code: response.status)
                    respond(response)
                }
            }
        }
    }

    /// The response to `request` at `now`, counted (`/probe` is not answered here: 404).
    package func respond(to request: HTTPRequest, at now: Date = Date()) -> HTTPResponse {
        let response = immediate(request, at: now)
        requests.count(handler: request.path, code: response.status)
        return response
    }

    private func immediate(_ request: HTTPRequest, at now: Date) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "method not allowed: only GET and HEAD\n", headers: [("Allow", "GET, HEAD")])
        }
        let noStore = [(name: "Cache-Control", value: "no-store")]
        let coding = ContentCoding(acceptEncoding: request.header("Accept-Encoding"))
        switch request.path {
        case "/metrics":
            let format = ExpositionFormat(accept: request.accept)
            // This scrape is counted once answered: its body holds the requests before it.
            let body = metrics.body(
                of: monitor, format: format, at: now, maxDevices: maxDevices, channel: channel,
                extra: [requests.family()] + ProcessMetrics.families(started: monitor.snapshot.started))
            return Self.encoded(
                body, contentType: format.contentType, coding: coding, headers: noStore, vary: "Accept, Accept-Encoding"
            )
        case "/devices":
            let fleet = monitor.snapshot
            let document = DevicesDocument(
                backend: fleet.backend, discoveryUp: fleet.discoveryUp, downReason: fleet.downReason,
                devices: devicesReport(fleet))
            guard let text = try? JSONOutput.string(document, format: .pretty) else {
                return .text(500, "the device list could not be written as JSON\n")
            }
            return Self.encoded(
                ResponseBody([.fresh(text)]), contentType: "application/json", coding: coding, headers: noStore,
                vary: "Accept-Encoding")
        case "/sd":
            let targets = ServiceDiscoveryTargets(monitor.snapshot, maxDevices: maxDevices)
            guard let text = try? JSONOutput.string(targets, format: .lines) else {
                return .text(500, "the targets could not be written as JSON\n")
            }
            return Self.encoded(
                ResponseBody([.fresh(text)]), contentType: "application/json", coding: coding, headers: noStore,
                vary: "Accept-Encoding")
        case "/-/healthy":
            return .text(200, "cast-scan is healthy.\n", headers: noStore)
        case "/-/ready":
            let fleet = monitor.snapshot
            if let reason = fleet.readinessProblem {
                return .text(503, "not ready: \(TerminalText.sanitize(reason))\n", headers: noStore)
            }
            return .text(200, "cast-scan is ready.\n", headers: noStore)
        case "/healthz":
            let fleet = monitor.snapshot
            if let reason = fleet.downReason {
                return .text(503, "unavailable: \(TerminalText.sanitize(reason))\n", headers: noStore)
            }
            return .text(
                200,
                "ok: discovery running (backend \(TerminalText.sanitize(fleet.backend)), \(fleet.listedCount) devices)\n",
                headers: noStore)
        case "/":
            let page = StatusPage.html(monitor.snapshot, at: now, maxDevices: maxDevices, channel: channel)
            return HTTPResponse(
                status: 200, contentType: "text/html; charset=utf-8",
                headers: noStore + [("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")],
                body: Array(page.utf8))
        default:
            return .text(404, "not found: try /, /metrics, /devices, /sd, /-/healthy, /-/ready or /healthz\n")
        }
    }

    /// `body` as `coding` asks (identity when gzip fails), with `Vary` naming what chose it.
    static func encoded(
        _ body: ResponseBody, contentType: String, coding: ContentCoding, headers: [(name: String, value: String)],
        vary: String
    ) -> HTTPResponse {
        var headers = headers + [(name: "Vary", value: vary)]
        if coding == .gzip, let compressed = body.gzip() {
            headers.append((name: "Content-Encoding", value: "gzip"))
            return HTTPResponse(status: 200, contentType: contentType, headers: headers, body: compressed)
        }
        return HTTPResponse(status: 200, contentType: contentType, headers: headers, body: body.bytes)
    }
}

extension ServeRoutes {
    /// The listed devices as `/devices` gives them: with `--status`, each with its receiver
    /// object and its last device-authentication verdict (impostors named).
    func devicesReport(_ fleet: Fleet) -> [DeviceReport] {
        let listed = fleet.listed.prefix(max(0, maxDevices))
        guard let channel else { return listed.map { DeviceReport($0.device) } }
        let impostors = DeviceImpostor.find(in: fleet.listed.map(\.device)) {
            channel.entry(for: $0.uniqueID)?.authentication?.authenticated
        }
        return listed.map { member in
            let entry = channel.entry(for: member.device.uniqueID)
            let auth = entry?.authentication.map { DeviceAuthReport($0, impostorOf: impostors[member.device.uniqueID]) }
            return DeviceReport(member.device, receiver: entry?.result, auth: auth)
        }
    }
}
