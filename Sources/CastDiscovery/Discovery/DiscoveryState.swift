/// Whether a discovery manager is discovering, like the SDK's `GCKDiscoveryState`.
public enum DiscoveryState: Int, Sendable, Hashable, CustomStringConvertible {
    /// Discovery is not running.
    case stopped = 0
    /// Discovery was started and has not stopped.
    case running = 1

    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .running: "running"
        }
    }
}
