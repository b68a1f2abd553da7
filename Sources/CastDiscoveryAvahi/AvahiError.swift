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

    /// Avahi's message for the code, with the swapped messages of -47 and -48 put right.
    public var message: String {
        switch code {
        case -47: return "Invalid DNS class"
        case -48: return "Invalid DNS type"
        default: return String(cString: avahi_strerror(code))
        }
    }

    public var description: String { "\(message) (Avahi error \(code))" }
}
