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

    /// The error for Avahi's `error` (while browsing `type`). A daemon or bus that does not
    /// answer is told apart: the bus missing, avahi-daemon not installed, or installed but not
    /// running; the fix is the one `services` gives (`busPresent`: whether the system bus
    /// socket exists, ``systemBusPresent`` unless a test says).
    static func error(
        for error: AvahiError, browsing type: String? = nil, services: SystemServices = .current,
        busPresent: Bool? = nil
    ) -> DiscoveryError {
        switch error {
        case .noDaemon, .disconnected, .badState:
            if !(busPresent ?? systemBusPresent) {
                return DiscoveryError(
                    kind: .discoveryServiceUnreachable,
                    message:
                        "the D-Bus system bus is not running (no socket at \(socketPath(of: systemBusAddress) ?? systemBusAddress))",
                    fix: "\(services.fix(.dbus)) (or point DBUS_SYSTEM_BUS_ADDRESS at a running bus)",
                    code: error.code)
            }
            return DiscoveryError(
                kind: .discoveryServiceMissing,
                message: services.isInstalled(.avahi)
                    ? "avahi-daemon is not running (\(error.message))" : "avahi-daemon is not installed",
                fix: services.fix(.avahi),
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
