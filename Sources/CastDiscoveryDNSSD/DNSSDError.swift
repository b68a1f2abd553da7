internal import CDNSSD
import CastDiscovery

/// A dns_sd error code (`kDNSServiceErr_*`), with its name and what it means for discovery.
struct DNSSDError: Error, Hashable, CustomStringConvertible {
    /// The raw `DNSServiceErrorType`.
    let code: Int32

    static let nameConflict = DNSSDError(code: Int32(kDNSServiceErr_NameConflict))
    static let unknown = DNSSDError(code: Int32(kDNSServiceErr_Unknown))
    static let noSuchName = DNSSDError(code: Int32(kDNSServiceErr_NoSuchName))
    static let noMemory = DNSSDError(code: Int32(kDNSServiceErr_NoMemory))
    static let badParam = DNSSDError(code: Int32(kDNSServiceErr_BadParam))
    static let badReference = DNSSDError(code: Int32(kDNSServiceErr_BadReference))
    static let badState = DNSSDError(code: Int32(kDNSServiceErr_BadState))
    static let badFlags = DNSSDError(code: Int32(kDNSServiceErr_BadFlags))
    static let unsupported = DNSSDError(code: Int32(kDNSServiceErr_Unsupported))
    static let notInitialized = DNSSDError(code: Int32(kDNSServiceErr_NotInitialized))
    static let incompatible = DNSSDError(code: Int32(kDNSServiceErr_Incompatible))
    static let badInterfaceIndex = DNSSDError(code: Int32(kDNSServiceErr_BadInterfaceIndex))
    static let refused = DNSSDError(code: Int32(kDNSServiceErr_Refused))
    static let noSuchRecord = DNSSDError(code: Int32(kDNSServiceErr_NoSuchRecord))
    static let noAuth = DNSSDError(code: Int32(kDNSServiceErr_NoAuth))

    private static let names: [DNSSDError: String] = [
        .unknown: "kDNSServiceErr_Unknown", .noSuchName: "kDNSServiceErr_NoSuchName",
        .nameConflict: "kDNSServiceErr_NameConflict",
        .noMemory: "kDNSServiceErr_NoMemory", .badParam: "kDNSServiceErr_BadParam",
        .badReference: "kDNSServiceErr_BadReference", .badState: "kDNSServiceErr_BadState",
        .badFlags: "kDNSServiceErr_BadFlags", .unsupported: "kDNSServiceErr_Unsupported",
        .notInitialized: "kDNSServiceErr_NotInitialized", .incompatible: "kDNSServiceErr_Incompatible",
        .badInterfaceIndex: "kDNSServiceErr_BadInterfaceIndex", .refused: "kDNSServiceErr_Refused",
        .noSuchRecord: "kDNSServiceErr_NoSuchRecord", .noAuth: "kDNSServiceErr_NoAuth",
    ]

    /// The constant's name, or the number.
    var description: String { Self.names[self] ?? "dns_sd error \(code)" }

    /// Whether the error means the daemon behind the API is gone or was never there: with
    /// Avahi's compatibility library, a missing daemon or D-Bus and a daemon restart all give
    /// `kDNSServiceErr_Unknown`.
    var meansDaemonUnavailable: Bool { self == .unknown || self == .notInitialized || self == .badState }

    /// The error as the core reports it, with a fix.
    var discoveryError: DiscoveryError { discoveryError(services: .current) }

    /// The error as the core reports it, with a fix: on Linux, for a daemon that does not
    /// answer, the one `services` gives for avahi-daemon (install it, or start it).
    func discoveryError(services: SystemServices) -> DiscoveryError {
        if meansDaemonUnavailable {
            #if canImport(Darwin)
            return DiscoveryError(
                kind: .discoveryServiceMissing, message: "mDNSResponder did not answer (\(self))",
                fix: "mDNSResponder is part of the system; check that discovery is not blocked")
            #else
            let what =
                services.isInstalled(.avahi)
                ? "avahi-daemon is not running, or D-Bus is not" : "avahi-daemon is not installed"
            return DiscoveryError(
                kind: .discoveryServiceMissing,
                message: "\(what) (\(self) from the dns_sd compatibility library)",
                fix: "\(services.fix(.avahi)), or use --backend mdns, which needs no daemon")
            #endif
        }
        if self == .noAuth {
            return DiscoveryError(
                kind: .daemonError, message: "the browse was refused (\(self))",
                fix: "on iOS 14 or later, list the service type in NSBonjourServices")
        }
        return DiscoveryError(kind: .daemonError, message: "dns_sd failed: \(self)")
    }
}
