import CastChannel
import CastDiscovery

/// The device table of `cast-scan`: untrusted names made safe, long cells cut, wide and
/// combining characters kept aligned.
package enum DeviceTable {
    static let formatter = TableFormatter(
        columns: [
            .init("NAME", maxWidth: 32), .init("KIND"), .init("MODEL", maxWidth: 20), .init("ADDRESS", maxWidth: 46),
            .init("STATUS", maxWidth: 24), .init("CAPABILITIES", maxWidth: 40), .init("ID"),
        ], trimsTrailingSpaces: true)

    /// The table with what each device said over the Cast channel (`--status`): APP, VOLUME
    /// and REACHABLE after STATUS.
    static let statusFormatter = TableFormatter(
        columns: [
            .init("NAME", maxWidth: 32), .init("KIND"), .init("MODEL", maxWidth: 20), .init("ADDRESS", maxWidth: 46),
            .init("STATUS", maxWidth: 24), .init("APP", maxWidth: 24), .init("VOLUME"),
            .init("REACHABLE", maxWidth: 32),
            .init("CAPABILITIES", maxWidth: 40), .init("ID"),
        ], trimsTrailingSpaces: true)

    /// The `--status` table when devices are authenticated: AUTH after REACHABLE.
    static let authFormatter = TableFormatter(
        columns: [
            .init("NAME", maxWidth: 32), .init("KIND"), .init("MODEL", maxWidth: 20), .init("ADDRESS", maxWidth: 46),
            .init("STATUS", maxWidth: 24), .init("APP", maxWidth: 24), .init("VOLUME"),
            .init("REACHABLE", maxWidth: 32), .init("AUTH", maxWidth: 48),
            .init("CAPABILITIES", maxWidth: 40), .init("ID"),
        ], trimsTrailingSpaces: true)

    /// The rows for `devices`, every cell sanitized; with `states`, each device's APP, VOLUME
    /// and REACHABLE cells after STATUS.
    static func rows(_ devices: [CastDevice], states: ReceiverStates? = nil, auth: DeviceAuthVerdicts? = nil)
        -> [[String]]
    {
        devices.map { device in
            let status: String
            switch device.status {
            case .busy: status = device.statusText.map { "busy: \($0)" } ?? "busy"
            case .idle: status = "idle"
            case .unknown: status = "unknown"
            }
            let address = device.networkAddress.map { $0.endpoint(port: device.port) } ?? "-"
            let more = device.addresses.count > 1 ? " +\(device.addresses.count - 1)" : ""
            var cells = [device.friendlyName, device.kind.description, device.modelName ?? "-", address + more, status]
            if let states { cells += channelCells(states.entry(for: device.uniqueID)?.result) }
            if let auth { cells.append(auth.cell(device)) }
            cells += [device.capabilities.description, device.id.rawValue]
            return cells.map { TerminalText.sanitize($0) }
        }
    }

    /// APP, VOLUME and REACHABLE for one device: `yes`, or `no: ` and the reason's code.
    static func channelCells(_ result: ReceiverProbeResult?) -> [String] {
        guard let result else { return ["-", "-", "not asked"] }
        return [
            ReceiverStatusTable.application(result.status), ReceiverStatusTable.volume(result.status?.volume),
            result.error.map { "no: \($0.code.rawValue)" } ?? (result.isReachable ? "yes" : "no"),
        ]
    }

    /// The table as text, ending with a newline; with `states`, with the Cast channel's columns;
    /// with `auth`, with each device's verdict.
    package static func render(_ devices: [CastDevice], states: ReceiverStates? = nil) -> String {
        render(devices, states: states, auth: nil)
    }

    static func render(_ devices: [CastDevice], states: ReceiverStates?, auth: DeviceAuthVerdicts?) -> String {
        let formatter = states == nil ? formatter : auth == nil ? statusFormatter : authFormatter
        return formatter.render(rows(devices, states: states, auth: states == nil ? nil : auth))
    }
}
