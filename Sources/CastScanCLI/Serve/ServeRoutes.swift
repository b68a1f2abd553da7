import CastChannel
import CastScanServing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `cast-scan serve` answers: `/metrics`, `/devices`, `/healthz` and the status page `/`.
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

    let monitor: FleetMonitor
    /// The most devices a page or a scrape holds.
    let maxDevices: Int
    /// `--status`: what each device says over its Cast channel; nil without it.
    var channel: ReceiverStates? = nil
    /// The `/metrics` body's members' part, rendered once per revision of the fleet.
    let metrics = FleetMetricsCache()

    /// The routes over `monitor`'s fleet (what the memberwise initializer was, reachable from
    /// the fuzz targets of `Fuzz/`).
    package init(monitor: FleetMonitor, maxDevices: Int, channel: ReceiverStates? = nil) {
        self.monitor = monitor
        self.maxDevices = maxDevices
        self.channel = channel
    }

    /// The response to `request` at `now`.
    package func respond(to request: HTTPRequest, at now: Date = Date()) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "method not allowed: only GET and HEAD\n", headers: [("Allow", "GET, HEAD")])
        }
        let noStore = [(name: "Cache-Control", value: "no-store")]
        switch request.path {
        case "/metrics":
            let format = ExpositionFormat(accept: request.accept)
            let body = metrics.body(of: monitor, format: format, at: now, maxDevices: maxDevices, channel: channel)
            return HTTPResponse(status: 200, contentType: format.contentType, headers: noStore, body: Array(body.utf8))
        case "/devices":
            let fleet = monitor.snapshot
            let document = DevicesDocument(
                backend: fleet.backend, discoveryUp: fleet.discoveryUp, downReason: fleet.downReason,
                devices: devicesReport(fleet))
            guard let text = try? JSONOutput.string(document, format: .pretty) else {
                return .text(500, "the device list could not be written as JSON\n")
            }
            return HTTPResponse(status: 200, contentType: "application/json", headers: noStore, body: Array(text.utf8))
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
            return .text(404, "not found: try /, /metrics, /devices or /healthz\n")
        }
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
