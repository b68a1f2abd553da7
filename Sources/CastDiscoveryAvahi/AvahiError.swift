internal import CAvahi

/// An error code from libavahi-client or avahi-daemon, with Avahi's message for it.
public struct AvahiError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Avahi's negative error code (`AVAHI_ERR_*`).
    public let code: Int32

    /// Wraps an Avahi error code.
    public init(code: Int32) { self.code = code }

    /// Generic failure (`AVAHI_ERR_FAILURE`).
    public static let failure = AvahiError(code: Int32(AVAHI_ERR_FAILURE))
    /// An object was in a bad state (`AVAHI_ERR_BAD_STATE`).
    public static let badState = AvahiError(code: Int32(AVAHI_ERR_BAD_STATE))
    /// An invalid service type (`AVAHI_ERR_INVALID_SERVICE_TYPE`).
    public static let invalidServiceType = AvahiError(code: Int32(AVAHI_ERR_INVALID_SERVICE_TYPE))
    /// A resolve timed out (`AVAHI_ERR_TIMEOUT`).
    public static let timeout = AvahiError(code: Int32(AVAHI_ERR_TIMEOUT))
    /// The D-Bus connection to the daemon failed (`AVAHI_ERR_DISCONNECTED`).
    public static let disconnected = AvahiError(code: Int32(AVAHI_ERR_DISCONNECTED))
    /// Out of memory (`AVAHI_ERR_NO_MEMORY`).
    public static let noMemory = AvahiError(code: Int32(AVAHI_ERR_NO_MEMORY))
    /// The daemon is not running or the bus is unreachable (`AVAHI_ERR_NO_DAEMON`).
    public static let noDaemon = AvahiError(code: Int32(AVAHI_ERR_NO_DAEMON))
    /// The bus or the daemon refused the client (`AVAHI_ERR_ACCESS_DENIED`).
    public static let accessDenied = AvahiError(code: Int32(AVAHI_ERR_ACCESS_DENIED))
    /// An unexpected D-Bus error (`AVAHI_ERR_DBUS_ERROR`).
    public static let dbusError = AvahiError(code: Int32(AVAHI_ERR_DBUS_ERROR))
    /// A name is in use (`AVAHI_ERR_COLLISION`): by another service of this daemon.
    public static let collision = AvahiError(code: Int32(AVAHI_ERR_COLLISION))
    /// The daemon's limit of objects per client or entries per group (`AVAHI_ERR_TOO_MANY_OBJECTS`, `..._ENTRIES`).
    public static let tooManyObjects = AvahiError(code: Int32(AVAHI_ERR_TOO_MANY_OBJECTS))
    /// See ``tooManyObjects``.
    public static let tooManyEntries = AvahiError(code: Int32(AVAHI_ERR_TOO_MANY_ENTRIES))
    /// An invalid service subtype (`AVAHI_ERR_INVALID_SERVICE_SUBTYPE`).
    public static let invalidServiceSubtype = AvahiError(code: Int32(AVAHI_ERR_INVALID_SERVICE_SUBTYPE))

    /// The most negative code Avahi defines (`AVAHI_ERR_MAX + 1`): codes run from -1 to this.
    static let lastCode = Int32(AVAHI_ERR_MAX) + 1

    /// Avahi's message for the code, with the swapped messages of -47 and -48 put right.
    public var message: String {
        switch code {
        case Int32(AVAHI_ERR_INVALID_DNS_CLASS): return "Invalid DNS class"
        case Int32(AVAHI_ERR_INVALID_DNS_TYPE): return "Invalid DNS type"
        default: return String(cString: avahi_strerror(code))
        }
    }

    public var description: String { "\(message) (Avahi error \(code))" }
}
