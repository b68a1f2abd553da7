import CastDiscovery
import CastScanServing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The metrics `cast-scan serve` exposes: the fleet's devices and how discovery is doing,
/// named after Prometheus' conventions (`cast_` prefix, base units, `_total` counters).
enum FleetMetrics {
    /// The families that depend on the members alone (they change with ``Fleet/revision``),
    /// with the last-seen family apart: a listed device's value there is the scrape's time.
    struct MemberSeries: Sendable {
        /// `cast_devices`, `cast_device_up`, `cast_device_info`, `cast_device_busy`.
        var leading: [MetricFamily]
        /// `cast_device_last_seen_timestamp_seconds`' series: their labels, and when the device
        /// went (nil while it is listed: the value is then the scrape's time).
        var lastSeen: [(labels: [MetricFamily.Label], goneAt: Date?)]
        /// `cast_device_first_seen_timestamp_seconds` and `cast_devices_not_exported`.
        var trailing: [MetricFamily]

        /// The last-seen family at `now`, with its samples' values.
        func lastSeenFamily(at now: Date) -> MetricFamily {
            FleetMetrics.lastSeenFamily(
                lastSeen.map { .init($0.labels, value: FleetMetrics.seconds($0.goneAt ?? now)) })
        }
    }

    /// The families for `fleet` at `now` (the members' families, then last-seen, whose value
    /// changes with every scrape, then the process's), with per-device series for at most `maxDevices`
    /// devices (listed first, then those gone, the latest gone first); the rest are counted in
    /// `cast_devices_not_exported`.
    static func families(_ fleet: Fleet, at now: Date, maxDevices: Int) -> [MetricFamily] {
        let members = memberSeries(fleet, maxDevices: maxDevices)
        return members.leading + members.trailing + [members.lastSeenFamily(at: now)] + processFamilies(fleet)
    }

    /// The families of the members, as ``families(_:at:maxDevices:)`` has them.
    static func memberSeries(_ fleet: Fleet, maxDevices: Int) -> MemberSeries {
        let listed = fleet.listed, gone = fleet.gone
        let exported = Array((listed + gone).prefix(max(0, maxDevices)))
        let notExported = listed.count + gone.count - exported.count

        var byKind: [CastDeviceKind: Int] = [:]
        for member in listed { byKind[member.device.kind, default: 0] += 1 }
        let devices = MetricFamily(
            "cast_devices", help: "Cast devices listed now, by kind.", kind: .gauge,
            samples:
                CastDeviceKind.allCases.map { .init([.init("kind", $0.rawValue)], value: Double(byKind[$0] ?? 0)) })

        var up: [MetricFamily.Sample] = [], info: [MetricFamily.Sample] = [], busy: [MetricFamily.Sample] = []
        var lastSeen: [(labels: [MetricFamily.Label], goneAt: Date?)] = [], firstSeen: [MetricFamily.Sample] = []
        for member in exported {
            let device = member.device
            let id = MetricFamily.Label("unique_id", label(device.uniqueID))
            let identity = [
                id, .init("name", label(device.friendlyName)), .init("model", label(device.modelName ?? "")),
                .init("kind", device.kind.rawValue),
            ]
            up.append(.init(identity, value: member.goneAt == nil ? 1 : 0))
            let address = device.networkAddress.map { "\($0.ip)" } ?? ""
            info.append(
                .init(
                    identity + [
                        .init("address", label(address)), .init("port", String(device.port)),
                        .init("source", device.knownHost == nil ? "multicast" : "host"),
                    ], value: 1))
            busy.append(.init([id], value: device.status == .busy ? 1 : 0))
            lastSeen.append(([id], member.goneAt))
            firstSeen.append(.init([id], value: seconds(member.firstSeen)))
        }
        return MemberSeries(
            leading: [
                devices,
                MetricFamily(
                    "cast_device_up", help: "1 while the device is listed; 0 for the forget-after time after it went.",
                    kind: .gauge, samples: up),
                MetricFamily(
                    "cast_device_info", help: "A device's address, port and where it was found (always 1).",
                    kind: .info, samples: info),
                MetricFamily(
                    "cast_device_busy", help: "1 while the device says it is busy (TXT st=1).", kind: .gauge,
                    samples: busy),
            ],
            lastSeen: lastSeen,
            trailing: [
                MetricFamily(
                    "cast_device_first_seen_timestamp_seconds",
                    help: "When this process first listed the device, Unix time.", kind: .gauge, samples: firstSeen),
                MetricFamily(
                    "cast_devices_not_exported", help: "Devices without per-device series (past --max-devices).",
                    kind: .gauge, samples: [.init(value: Double(notExported))]),
            ])
    }

    /// `cast_device_last_seen_timestamp_seconds` with `samples`.
    static func lastSeenFamily(_ samples: [MetricFamily.Sample]) -> MetricFamily {
        MetricFamily(
            "cast_device_last_seen_timestamp_seconds",
            help: "When the device was last listed (now while it is), Unix time.", kind: .gauge, samples: samples)
    }

    /// The families that do not depend on the members: how discovery is doing, the process's
    /// counters and the build; read at each scrape.
    static func processFamilies(_ fleet: Fleet) -> [MetricFamily] {
        var families = [
            MetricFamily(
                "cast_discovery_up",
                help: "1 while discovery runs; 0 while the backend starts, waits for its daemon or has failed.",
                kind: .gauge, samples: [.init(value: fleet.discoveryUp ? 1 : 0)]),
            MetricFamily(
                "cast_discovery_backend_info", help: "The discovery backend in use (always 1).", kind: .info,
                samples: [.init([.init("backend", label(fleet.backend))], value: 1)]),
            MetricFamily(
                "cast_discovery_missed_events",
                help: "Discovery events this server fell behind on (the list was taken whole instead).", kind: .counter,
                samples: [.init(value: Double(fleet.missedEvents))]),
        ]
        if let statistics = fleet.statistics {
            let counters: [(String, String, Int)] = [
                ("cast_mdns_packets_received", "mDNS packets the querier received.", statistics.packetsReceived),
                ("cast_mdns_queries_sent", "mDNS queries the querier sent.", statistics.queriesSent),
                (
                    "cast_mdns_suppressed_queries",
                    "Queries the querier did not send (known-answer and duplicate-question suppression).",
                    statistics.suppressedQueries
                ),
                (
                    "cast_mdns_malformed_packets", "mDNS packets the querier could read nothing from.",
                    statistics.malformedPackets
                ),
                (
                    "cast_mdns_malformed_records", "mDNS records the querier skipped in packets it read the rest of.",
                    statistics.malformedRecords
                ),
                (
                    "cast_mdns_off_link_packets", "mDNS packets dropped because their source was not on the link.",
                    statistics.offLinkPackets
                ),
                (
                    "cast_mdns_ignored_packets", "mDNS packets the querier ignored (queries, other services).",
                    statistics.ignoredPackets
                ),
                (
                    "cast_mdns_dropped_records", "mDNS records dropped by the querier's bounds.",
                    statistics.droppedRecords
                ),
                (
                    "cast_discovery_coalesced_events",
                    "Backend events folded into newer ones while the discovery manager was behind.",
                    statistics.coalescedEvents
                ),
            ]
            families += counters.map {
                MetricFamily($0.0, help: $0.1, kind: .counter, samples: [.init(value: Double(max(0, $0.2)))])
            }
        }
        if let report = fleet.report {
            families += [
                MetricFamily(
                    "cast_report_pending_events", help: "Device events waiting in the report spool for the collector.",
                    kind: .gauge, samples: [.init(value: Double(report.pending))]),
                MetricFamily(
                    "cast_report_dropped_events", help: "Device events the report spool dropped (past its bounds).",
                    kind: .counter, samples: [.init(value: Double(report.dropped))]),
            ]
        }
        families.append(
            MetricFamily(
                "cast_scan_build_info", help: "The cast-scan serving (always 1).", kind: .info,
                samples: [
                    .init([.init("version", BuildInfo.version), .init("commit", label(BuildInfo.commit))], value: 1)
                ]))
        return families
    }

    /// A label value without terminal controls, bidi overrides or undecodable bytes (shown
    /// as escapes), at most 256 characters.
    static func label(_ text: String) -> String {
        let safe = TerminalText.sanitize(text)
        return safe.count > 256 ? String(safe.prefix(255)) + "…" : safe
    }

    /// A time as the metrics write it: Unix seconds, to the millisecond.
    static func seconds(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded() / 1000
    }
}
