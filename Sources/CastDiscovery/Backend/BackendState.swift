/// The connection state of a discovery backend.
public enum BackendState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting for the daemon (at start, or after it went away).
    case connecting
    /// Connected; browses are running.
    case running
    /// The daemon went away; every service it had reported has been reported removed and the
    /// backend is reconnecting.
    case daemonLost
    /// The backend stopped for good; the event stream ends after this.
    case failed(DiscoveryError)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .running: "running"
        case .daemonLost: "daemon lost"
        case .failed(let error): "failed: \(error)"
        }
    }
}
