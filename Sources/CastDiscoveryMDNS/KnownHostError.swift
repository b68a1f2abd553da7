import CastDiscovery

/// Why a ``KnownHostsBackend`` cannot be made: the host that is no address and does not
/// resolve (nil when the list itself is wrong: empty, or too long), and the reason.
public struct KnownHostError: Error, Sendable, CustomStringConvertible {
    /// The host as given, when one host is at fault.
    public var host: String?
    /// What is wrong (`.badInput`).
    public var error: DiscoveryError

    /// Creates the error.
    public init(host: String?, error: DiscoveryError) {
        self.host = host
        self.error = error
    }

    /// The reason, naming the host.
    public var description: String { error.description }
}
