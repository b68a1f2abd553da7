import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns Avahi's error codes into errors that say what is missing and how to fix it.
enum AvahiDiagnosis {
    /// The system bus address clients use: `DBUS_SYSTEM_BUS_ADDRESS`, else the default socket.
    static var systemBusAddress: String {
        ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "unix:path=/run/dbus/system_bus_socket"
    }

    /// The socket path of a `unix:path=...` bus address, when it is one.
    static func socketPath(of address: String) -> String? {
        for part in address.split(separator: ";") {
            guard part.hasPrefix("unix:") else { continue }
            for field in part.dropFirst(5).split(separator: ",") where field.hasPrefix("path=") {
                return String(field.dropFirst(5))
            }
        }
        return nil
    }

    /// Whether the system bus socket exists (abstract and non-unix addresses count as present).
    static var systemBusPresent: Bool {
        guard let path = socketPath(of: systemBusAddress) else { return true }
        return FileManager.default.fileExists(atPath: path)
    }

    static func error(for error: AvahiError, browsing type: String? = nil) -> DiscoveryError {
        switch error {
        case .noDaemon, .disconnected, .badState:
            if !systemBusPresent {
                return DiscoveryError(
                    kind: .discoveryServiceUnreachable,
                    message: "the D-Bus system bus is not running (no socket at \(socketPath(of: systemBusAddress) ?? systemBusAddress))",
                    fix: "start it with `service dbus start` (or point DBUS_SYSTEM_BUS_ADDRESS at a running bus)",
                    code: error.code)
            }
            return DiscoveryError(
                kind: .discoveryServiceMissing,
                message: "avahi-daemon is not running (\(error.message))",
                fix: "start it with `service avahi-daemon start` (or `avahi-daemon -D`); install it with `apt-get install avahi-daemon`",
                code: error.code)
        case .invalidServiceType, .invalidServiceSubtype:
            return DiscoveryError(
                kind: .invalidBrowseType,
                message: "avahi-daemon refused to browse \"\(type ?? "?")\": \(error.message)",
                code: error.code)
        default:
            let what = type.map { "browsing \"\($0)\" failed" } ?? "avahi-daemon reported an error"
            return DiscoveryError(kind: .daemonError, message: "\(what): \(error.message)", code: error.code)
        }
    }
}
