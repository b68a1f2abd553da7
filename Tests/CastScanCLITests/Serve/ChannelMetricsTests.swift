import CastChannel
@testable import CastScanCLI
import CastScanServing
import Foundation
import Testing

/// `serve --status`: the Cast channel's families in `/metrics`, the receiver object in
/// `/devices`, the page's columns, all read from the one `ReceiverStates`.
@Suite("serve --status: the channel in metrics, devices and the page")
struct ChannelMetricsTests {
    static func states() throws -> ReceiverStates {
        let states = ReceiverStates()
        var answered = ReceiverProbeResult(host: "10.0.0.2", port: 8009)
        answered.connectDuration = .milliseconds(2)
        answered.tlsDuration = .milliseconds(12)
        answered.statusDuration = .milliseconds(11)
        answered.status = try ReceiverMessage(
            json:
                #"{"type":"RECEIVER_STATUS","status":{"applications":[{"appId":"CC1AD845","displayName":"Default \"Media\" Receiver\u001b[2J"}],"volume":{"level":0.45,"muted":true},"isStandBy":false}}"#
        ).status
        states.record(answered, for: FleetTests.device(1).uniqueID)
        var refused = ReceiverProbeResult(host: "10.0.0.3", port: 8009)
        refused.error = CastChannelError(.refused, "connection refused")
        states.record(refused, for: FleetTests.device(2).uniqueID)
        states.record(refused, for: FleetTests.device(2).uniqueID)
        return states
    }

    static func routes(channel: ReceiverStates?) -> ServeRoutes {
        var fleet = Fleet(backend: "mdns", reason: "test", started: Date(), forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1), FleetTests.device(2), FleetTests.device(3)], at: Date())
        fleet.backendState = .running
        return ServeRoutes(monitor: FleetMonitor(fleet), maxDevices: 10, channel: channel)
    }

    static func get(_ routes: ServeRoutes, _ path: String) -> String {
        String(decoding: routes.respond(to: HTTPRequest(method: "GET", path: path)).body, as: UTF8.self)
    }

    @Test(
        "the families: reachable, volume, muted, standby, the app, each phase, failures by reason; a device never asked has none"
    )
    func metrics() throws {
        let body = Self.get(Self.routes(channel: try Self.states()), "/metrics")
        let one = FleetTests.device(1).uniqueID, two = FleetTests.device(2).uniqueID,
            three = FleetTests.device(3).uniqueID
        for line in [
            #"cast_device_reachable{unique_id="\#(one)"} 1"#,
            #"cast_device_reachable{unique_id="\#(two)"} 0"#,
            #"cast_device_volume_level{unique_id="\#(one)"} 0.45"#,
            #"cast_device_muted{unique_id="\#(one)"} 1"#,
            #"cast_device_standby{unique_id="\#(one)"} 0"#,
            #"cast_device_app_info{unique_id="\#(one)",app_id="CC1AD845",app_name="Default \"Media\" Receiver\\e[2J"} 1"#,
            #"cast_device_probe_seconds{unique_id="\#(one)",phase="tls"} 0.012"#,
            #"cast_device_channel_failures_total{unique_id="\#(two)",reason="refused"} 2"#,
            #"cast_device_channel_failures_total{unique_id="\#(one)",reason="timeout"} 0"#,
            "# TYPE cast_device_channel_failures_total counter",
        ] {
            #expect(body.contains(line + "\n"), "missing: \(line)")
        }
        #expect(
            !body.contains("cast_device_reachable{unique_id=\"\(three)\""), "a device never asked has no channel series"
        )
        #expect(
            !body.contains("cast_device_volume_level{unique_id=\"\(two)\""),
            "no volume for a device that did not answer")
        #expect(
            !Self.get(Self.routes(channel: nil), "/metrics").contains("cast_device_reachable"),
            "without --status, no channel families")
    }

    @Test("a change in the states is in the next scrape (the cache follows the states' revision)")
    func follows() throws {
        let states = try Self.states()
        let routes = Self.routes(channel: states)
        let id = FleetTests.device(2).uniqueID
        #expect(Self.get(routes, "/metrics").contains(#"cast_device_reachable{unique_id="\#(id)"} 0"#))
        var answered = ReceiverProbeResult(host: "10.0.0.3", port: 8009)
        answered.status = ReceiverStatus()
        states.record(answered, for: id)
        #expect(Self.get(routes, "/metrics").contains(#"cast_device_reachable{unique_id="\#(id)"} 1"#))
    }

    @Test("/devices has each device's receiver object; the page its Playing, Volume and Reachable cells, escaped")
    func devicesAndPage() throws {
        let routes = Self.routes(channel: try Self.states())
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.get(routes, "/devices").utf8)) as? [String: Any])
        let devices = try #require(document["devices"] as? [[String: Any]])
        #expect((devices[0]["receiver"] as? [String: Any])?["reachable"] as? Bool == true)
        #expect(
            ((devices[1]["receiver"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "refused")
        #expect(devices[2]["receiver"] == nil)
        let page = Self.get(routes, "/")
        #expect(page.contains("<th>Playing</th><th>Volume</th><th>Reachable</th><th>Genuine</th>"))
        #expect(page.contains("Default &quot;Media&quot; Receiver\\e[2J"))
        #expect(page.contains(">45% muted<") && page.contains(">no: refused<") && page.contains(">not asked<"))
        #expect(!Self.get(Self.routes(channel: nil), "/").contains("<th>Playing</th>"))
    }

    /// Devices 1 and 2 share a friendly name: 1 passes, 2 does not (untrustedChain); device 3
    /// has no verdict.
    static func authenticatedStates() throws -> (ReceiverStates, ServeRoutes) {
        let states = try states()
        let genuine = DeviceAuthVerdict(
            failures: [],
            checks: .init(tlsCertificate: .passed, signature: .passed, chain: .passed, revocation: .notChecked),
            anchor: "CN=Cast Root CA", anchorKind: .castRoot, audioOnly: true)
        let impostor = DeviceAuthVerdict(
            failures: [DeviceAuthFailure(.untrustedChain, "no path <to> a root")],
            checks: .init(tlsCertificate: .passed, signature: .passed, chain: .failed, revocation: .notChecked))
        states.record(authentication: genuine, for: FleetTests.device(1, name: "Lobby").uniqueID)
        states.record(authentication: impostor, for: FleetTests.device(2, name: "Lobby").uniqueID)
        var fleet = Fleet(backend: "mdns", reason: "test", started: Date(), forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list(
            [FleetTests.device(1, name: "Lobby"), FleetTests.device(2, name: "Lobby"), FleetTests.device(3)], at: Date()
        )
        return (states, ServeRoutes(monitor: FleetMonitor(fleet), maxDevices: 10, channel: states))
    }

    @Test(
        "authentication: authenticated 1 or 0, the info series with the result and the impostor; none without a verdict"
    )
    func authentication() throws {
        let (_, routes) = try Self.authenticatedStates()
        let body = Self.get(routes, "/metrics")
        let one = FleetTests.device(1).uniqueID, two = FleetTests.device(2).uniqueID
        for line in [
            #"cast_device_authenticated{unique_id="\#(one)"} 1"#,
            #"cast_device_authenticated{unique_id="\#(two)"} 0"#,
            #"cast_device_authentication_info{unique_id="\#(one)",result="genuine",audio_only="true",anchor="castRoot",impostor_of=""} 1"#,
            #"cast_device_authentication_info{unique_id="\#(two)",result="untrustedChain",audio_only="false",anchor="",impostor_of="\#(one)"} 1"#,
        ] {
            #expect(body.contains(line + "\n"), "missing: \(line)")
        }
        #expect(!body.contains(#"cast_device_authenticated{unique_id="\#(FleetTests.device(3).uniqueID)"}"#))

        let page = Self.get(routes, "/")
        #expect(page.contains(">genuine, audio-only<") && page.contains(">impostor: untrustedChain<"))
        #expect(page.contains("no path &lt;to&gt; a root; an impostor of Lobby"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.get(routes, "/devices").utf8)) as? [String: Any])
        let devices = try #require(document["devices"] as? [[String: Any]])
        let auth = try #require((devices[1]["receiver"] as? [String: Any])?["auth"] as? [String: Any])
        #expect(auth["failure"] as? String == "untrustedChain")
        #expect((auth["impostorOf"] as? [String: Any])?["uniqueID"] as? String == one)
    }
}
