/// Why discovery could not run, with what is missing and how to fix it.
public struct DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for programs that react to it.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The discovery service the backend needs cannot be reached: the way to it (for Avahi,
        /// the D-Bus system bus) is missing or refuses the connection.
        case discoveryServiceUnreachable
        /// The discovery service the backend needs (avahi-daemon, mDNSResponder) is not running,
        /// or the backend does not exist on this platform.
        case discoveryServiceMissing
        /// The daemon refused or failed a request.
        case daemonError
        /// A browse type was not acceptable.
        case invalidBrowseType
        /// A recorded event file could not be read or parsed.
        case badInput
        /// Anything else.
        case other
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, in one sentence.
    public var message: String
    /// What to do about it, when there is something to do.
    public var fix: String?
    /// The backend's own error code, when it has one (Avahi's negative codes).
    public var code: Int32?

    /// Creates an error.
    public init(kind: Kind, message: String, fix: String? = nil, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
        self.code = code
    }

    /// The message, then the fix.
    public var description: String {
        fix.map { "\(message): \($0)" } ?? message
    }
}
