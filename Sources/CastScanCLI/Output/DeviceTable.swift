import CastDiscovery

/// The device table of `cast-scan`: untrusted names made safe, long cells cut, wide and
/// combining characters kept aligned.
enum DeviceTable {
    static let formatter = TableFormatter(columns: [
        .init("NAME", maxWidth: 32), .init("KIND"), .init("MODEL", maxWidth: 20), .init("ADDRESS", maxWidth: 46),
        .init("STATUS", maxWidth: 24), .init("CAPABILITIES", maxWidth: 40), .init("ID"),
    ], trimsTrailingSpaces: true)

    /// The rows for `devices`, every cell sanitized.
    static func rows(_ devices: [CastDevice]) -> [[String]] {
        devices.map { device in
            let status: String
            switch device.status {
            case .busy: status = device.statusText.map { "busy: \($0)" } ?? "busy"
            case .idle: status = "idle"
            case .unknown: status = "unknown"
            }
            let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
            let more = device.addresses.count > 1 ? " +\(device.addresses.count - 1)" : ""
            return [
                device.friendlyName, device.kind.description, device.modelName ?? "-", address + more, status,
                device.capabilities.description, device.id.rawValue,
            ].map { TerminalText.sanitize($0) }
        }
    }

    /// The table as text, ending with a newline.
    static func render(_ devices: [CastDevice]) -> String {
        formatter.render(rows(devices))
    }
}
