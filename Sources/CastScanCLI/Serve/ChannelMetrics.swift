import CastChannel
import CastScanServing

/// The metrics of `serve --status`: what each listed device says over its kept Cast channel,
/// read from ``ReceiverStates`` (one series set per device it holds, in the fleet's order, for
/// at most the exported devices). `/probe` writes the same families for its one target.
enum ChannelMetrics {
    /// The families for the listed members of `fleet` (the first `maxDevices`) from `entries`.
    static func families(_ fleet: Fleet, entries: [String: ReceiverStates.Entry], maxDevices: Int) -> [MetricFamily] {
        var series = Series()
        let impostors = DeviceImpostor.find(in: fleet.listed.map(\.device)) {
            entries[$0.uniqueID]?.authentication?.authenticated
        }
        for member in fleet.listed.prefix(max(0, maxDevices)) {
            guard let entry = entries[member.device.uniqueID] else { continue }
            series.add(
                identity: [MetricFamily.Label("unique_id", FleetMetrics.label(member.device.uniqueID))],
                result: entry.result, failures: entry.failures, verdict: entry.authentication,
                impostorOf: impostors[member.device.uniqueID].map { FleetMetrics.label($0.uniqueID) } ?? "")
        }
        return series.families
    }

    /// The families' samples, a row per device.
    struct Series {
        var reachable: [MetricFamily.Sample] = [], level: [MetricFamily.Sample] = []
        var muted: [MetricFamily.Sample] = [], standby: [MetricFamily.Sample] = []
        var app: [MetricFamily.Sample] = [], phases: [MetricFamily.Sample] = []
        /// Nil: the failures are not counted (a probe's one attempt).
        var failures: [MetricFamily.Sample]? = []
        var authenticated: [MetricFamily.Sample] = [], authentication: [MetricFamily.Sample] = []

        /// A row: the device's `identity` labels (none for a probe's target), its last result,
        /// its failures by reason (nil: not counted), its verdict and the device it imitates.
        mutating func add(
            identity: [MetricFamily.Label], result: ReceiverProbeResult, failures: [CastChannelError.Code: Int]?,
            verdict: DeviceAuthVerdict?, impostorOf: String
        ) {
            reachable.append(.init(identity, value: result.isReachable ? 1 : 0))
            if let status = result.status {
                if let value = status.volume?.level { level.append(.init(identity, value: value)) }
                if let value = status.volume?.muted { muted.append(.init(identity, value: value ? 1 : 0)) }
                if let value = status.isStandBy { standby.append(.init(identity, value: value ? 1 : 0)) }
                if let running = status.runningApplication {
                    app.append(
                        .init(
                            identity + [
                                .init("app_id", FleetMetrics.label(running.appId ?? "")),
                                .init("app_name", FleetMetrics.label(running.displayName ?? "")),
                            ], value: 1))
                }
            }
            for (phase, duration) in [
                ("connect", result.connectDuration), ("tls", result.tlsDuration), ("status", result.statusDuration),
            ] {
                if let duration { phases.append(.init(identity + [.init("phase", phase)], value: duration.seconds)) }
            }
            if let counts = failures {
                for code in CastChannelError.Code.allCases {
                    self.failures?.append(
                        .init(identity + [.init("reason", code.rawValue)], value: Double(counts[code] ?? 0)))
                }
            } else {
                self.failures = nil
            }
            if let verdict {
                authenticated.append(.init(identity, value: verdict.authenticated ? 1 : 0))
                authentication.append(
                    .init(
                        identity + [
                            .init("result", verdict.failure?.code.rawValue ?? "genuine"),
                            .init("audio_only", verdict.audioOnly ? "true" : "false"),
                            .init("anchor", verdict.anchorKind?.rawValue ?? ""), .init("impostor_of", impostorOf),
                        ], value: 1))
            }
        }

        var families: [MetricFamily] {
            var families = [
                MetricFamily(
                    "cast_device_reachable",
                    help:
                        "1 while the device answers over its Cast channel (TLS, port 8009) with its status; 0 while it does not.",
                    kind: .gauge, samples: reachable),
                MetricFamily(
                    "cast_device_volume_level", help: "The receiver's volume, 0 to 1, as its last status said.",
                    kind: .gauge, samples: level),
                MetricFamily(
                    "cast_device_muted", help: "1 while the receiver's last status said it is muted.", kind: .gauge,
                    samples: muted),
                MetricFamily(
                    "cast_device_standby", help: "1 while the receiver's last status said it is on standby.",
                    kind: .gauge, samples: standby),
                MetricFamily(
                    "cast_device_app_info",
                    help: "The app the receiver runs (not its idle screen), as its last status said (always 1).",
                    kind: .info, samples: app),
                MetricFamily(
                    "cast_device_probe_seconds",
                    help:
                        "How long each phase of the last connection to the device took: connect (TCP), tls, status (the first RECEIVER_STATUS).",
                    kind: .gauge, samples: phases),
            ]
            if let failures {
                families.append(
                    MetricFamily(
                        "cast_device_channel_failures",
                        help: "Attempts to reach the device over its Cast channel that failed, by reason.",
                        kind: .counter, samples: failures))
            }
            families += [
                MetricFamily(
                    "cast_device_authenticated",
                    help:
                        "1 when the device proved on its last Cast channel that it holds a key a trusted Cast root vouches for (device authentication); 0 when it did not.",
                    kind: .gauge, samples: authenticated),
                MetricFamily(
                    "cast_device_authentication_info",
                    help:
                        "The last device-authentication verdict (always 1): result is genuine or the failure's code; anchor the root reached (castRoot, eurekaRoot, custom); impostor_of the unique id of the listed device with its friendly name that passed.",
                    kind: .info, samples: authentication),
            ]
            return families
        }
    }
}
