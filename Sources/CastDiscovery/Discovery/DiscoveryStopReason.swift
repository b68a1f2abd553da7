/// Why discovery stopped.
public enum DiscoveryStopReason: Sendable, Hashable {
    /// The application called ``DiscoveryManager/stopDiscovery()``.
    case requested
    /// The backend failed for good (it reported ``BackendState/failed(_:)``).
    case backendFailed(DiscoveryError)
    /// The backend's event stream ended without a failure (a replay that reached its end).
    case backendEnded
}
