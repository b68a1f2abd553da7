/// What a subscriber of a ``DiscoveryManager`` missed because it fell behind: how many events
/// it did not receive, and the state they left, so it can carry on from there.
///
/// The events that follow ``DiscoveryEvent/eventsDropped(_:)`` apply to this state: a mirror of
/// the list set to ``devices`` stays equal to the manager's list by applying them.
public struct MissedEvents: Sendable, Hashable {
    /// How many events the subscriber did not receive (every kind, list changes and their
    /// will-update and did-update marks included).
    public var count: Int
    /// The listed devices after the missed events, in order.
    public var devices: [CastDevice]
    /// Whether discovery was running after them.
    public var discoveryState: DiscoveryState
    /// The backend's last reported state after them; nil before any.
    public var backendState: BackendState?
    /// The completion of the run's scan, when it had completed (a missed
    /// ``DiscoveryEvent/scanCompleted(_:)``, or an earlier one of the same run).
    public var scanCompletion: ScanCompletion?
    /// The generation of the list ``devices`` shows (``DeviceList/generation``).
    public var generation: Int

    /// Creates a report of missed events.
    public init(
        count: Int, devices: [CastDevice], discoveryState: DiscoveryState, backendState: BackendState?,
        scanCompletion: ScanCompletion?, generation: Int = 0
    ) {
        self.count = count
        self.devices = devices
        self.discoveryState = discoveryState
        self.backendState = backendState
        self.scanCompletion = scanCompletion
        self.generation = generation
    }
}
