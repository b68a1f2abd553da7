import CastDiscovery

/// What one scan found, and how it went.
public struct ScanResult: Sendable {
    /// The devices, in the manager's order.
    public var devices: [CastDevice]
    /// Whether the scan completed (rather than hitting its timeout).
    public var complete: Bool
    /// Seconds from the start of the scan to its end.
    public var elapsed: Double
    /// Resolves that failed during the scan.
    public var resolveFailures: [String]
}
