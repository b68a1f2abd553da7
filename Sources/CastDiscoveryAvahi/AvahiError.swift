import CAvahi

/// An error code from libavahi-client or avahi-daemon, with a Swift name and a readable message.
public struct AvahiError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Avahi's negative error code (`AVAHI_ERR_*`).
    public let code: Int32

    /// Wraps an Avahi error code.
    public init(code: Int32) { self.code = code }

    /// Generic failure (`AVAHI_ERR_FAILURE`).
    public static let failure = AvahiError(code: -1)
    /// An object was in a bad state (`AVAHI_ERR_BAD_STATE`).
    public static let badState = AvahiError(code: -2)
    /// An invalid service type (`AVAHI_ERR_INVALID_SERVICE_TYPE`).
    public static let invalidServiceType = AvahiError(code: -11)
    /// A resolve timed out (`AVAHI_ERR_TIMEOUT`).
    public static let timeout = AvahiError(code: -15)
    /// The D-Bus connection to the daemon failed (`AVAHI_ERR_DISCONNECTED`).
    public static let disconnected = AvahiError(code: -23)
    /// Out of memory (`AVAHI_ERR_NO_MEMORY`).
    public static let noMemory = AvahiError(code: -24)
    /// The daemon is not running or the bus is unreachable (`AVAHI_ERR_NO_DAEMON`).
    public static let noDaemon = AvahiError(code: -26)
    /// An invalid service subtype (`AVAHI_ERR_INVALID_SERVICE_SUBTYPE`).
    public static let invalidServiceSubtype = AvahiError(code: -33)

    /// The code's Swift-style name (`disconnected` for `AVAHI_ERR_DISCONNECTED`), or `code-N`
    /// for a code this table does not know.
    public var name: String { Self.names[code] ?? "code\(code)" }

    /// Every `AVAHI_ERR_*` code of Avahi 0.8 and its name.
    static let names: [Int32: String] = [
        -1: "failure",
        -2: "badState",
        -3: "invalidHostName",
        -4: "invalidDomainName",
        -5: "noNetwork",
        -6: "invalidTtl",
        -7: "isPattern",
        -8: "collision",
        -9: "invalidRecord",
        -10: "invalidServiceName",
        -11: "invalidServiceType",
        -12: "invalidPort",
        -13: "invalidKey",
        -14: "invalidAddress",
        -15: "timeout",
        -16: "tooManyClients",
        -17: "tooManyObjects",
        -18: "tooManyEntries",
        -19: "os",
        -20: "accessDenied",
        -21: "invalidOperation",
        -22: "dbusError",
        -23: "disconnected",
        -24: "noMemory",
        -25: "invalidObject",
        -26: "noDaemon",
        -27: "invalidInterface",
        -28: "invalidProtocol",
        -29: "invalidFlags",
        -30: "notFound",
        -31: "invalidConfig",
        -32: "versionMismatch",
        -33: "invalidServiceSubtype",
        -34: "invalidPacket",
        -35: "invalidDnsError",
        -36: "dnsFormerr",
        -37: "dnsServfail",
        -38: "dnsNxdomain",
        -39: "dnsNotimp",
        -40: "dnsRefused",
        -41: "dnsYxdomain",
        -42: "dnsYxrrset",
        -43: "dnsNxrrset",
        -44: "dnsNotauth",
        -45: "dnsNotzone",
        -46: "invalidRdata",
        -47: "invalidDnsClass",
        -48: "invalidDnsType",
        -49: "notSupported",
        -50: "notPermitted",
        -51: "invalidArgument",
        -52: "isEmpty",
        -53: "noChange",
    ]

    /// Avahi's message for the code, with the swapped messages of -47 and -48 put right.
    public var message: String {
        switch code {
        case -47: return "Invalid DNS class"
        case -48: return "Invalid DNS type"
        default: return String(cString: avahi_strerror(code))
        }
    }

    public var description: String { "\(message) (Avahi error \(code), \(name))" }
}
