/// What one scan (``DiscoveryManager/scan(timeout:progress:listed:)``) found, and how it went.
public struct ScanResult: Sendable, Hashable {
    /// The listed devices when the scan ended, in order.
    public var devices: [CastDevice]
    /// Whether the scan completed, rather than reaching its timeout or the end of its backend.
    public var isComplete: Bool
    /// From the start of the scan to its end.
    public var elapsed: Duration
    /// What settled each browse, in the order the browses run; a browse that had not settled
    /// when the scan ended has no reason.
    public var browses: [BrowseSettlement]
    /// The resolves that failed during the scan, in order.
    public var resolveFailures: [ResolveFailure]
    /// The backend's last counts, from a backend that reads the network itself.
    public var statistics: BackendStatistics?

    /// Creates a result.
    public init(
        devices: [CastDevice], isComplete: Bool, elapsed: Duration, browses: [BrowseSettlement],
        resolveFailures: [ResolveFailure], statistics: BackendStatistics? = nil
    ) {
        self.devices = devices
        self.isComplete = isComplete
        self.elapsed = elapsed
        self.browses = browses
        self.resolveFailures = resolveFailures
        self.statistics = statistics
    }
}
