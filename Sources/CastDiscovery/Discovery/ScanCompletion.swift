/// What a completed scan found: the list when it completed, what settled each browse, and how
/// long it took.
public struct ScanCompletion: Sendable, Hashable {
    /// The listed devices when the scan completed, in order.
    public var devices: [CastDevice]
    /// What settled each browse, in the order the browses run.
    public var browses: [BrowseSettlement]
    /// From the start of discovery to completion.
    public var elapsed: Duration

    /// Creates a completion.
    public init(devices: [CastDevice], browses: [BrowseSettlement], elapsed: Duration) {
        self.devices = devices
        self.browses = browses
        self.elapsed = elapsed
    }
}
