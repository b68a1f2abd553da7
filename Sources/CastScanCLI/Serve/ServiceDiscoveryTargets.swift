import CastDiscovery

/// What `GET /sd` answers: the listed devices as targets of Prometheus' HTTP service discovery
/// (`http_sd_configs`), one target group per device: its address and port, with `__meta_cast_*`
/// labels a relabelling can keep (friendly name, model, kind, ids, interface, address, port).
/// A device with no address is left out; at most `maxDevices` devices.
struct ServiceDiscoveryTargets: Encodable {
    /// One target group.
    struct Group: Encodable {
        var targets: [String]
        var labels: [String: String]
    }

    var groups: [Group]

    init(_ fleet: Fleet, maxDevices: Int) {
        groups = fleet.listed.prefix(max(0, maxDevices)).compactMap { member in
            let device = member.device
            guard let address = device.networkAddress else { return nil }
            let host: String
            switch address.ip {
            case .v4: host = "\(address.ip)"
            case .v6: host = "[\(address.ip)]"
            }
            var labels = [
                "__meta_cast_device_name": FleetMetrics.label(device.friendlyName),
                "__meta_cast_device_model": FleetMetrics.label(device.modelName ?? ""),
                "__meta_cast_device_kind": device.kind.rawValue,
                "__meta_cast_device_unique_id": FleetMetrics.label(device.uniqueID),
                "__meta_cast_device_id": FleetMetrics.label(device.id.normalized),
                "__meta_cast_device_address": "\(address.ip)",
                "__meta_cast_device_port": String(device.port),
            ]
            if let interface = address.interfaceName {
                labels["__meta_cast_device_interface"] = FleetMetrics.label(interface)
            }
            return Group(targets: ["\(host):\(device.port)"], labels: labels)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(groups)
    }
}
