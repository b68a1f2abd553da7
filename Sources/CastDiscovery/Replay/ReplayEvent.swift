/// One event of a replay: a backend event and when it happens, in seconds from the start.
public struct ReplayEvent: Sendable, Hashable {
    /// Seconds from the start of the replay (at speed 1).
    public var time: Double
    /// What the backend reports then.
    public var event: BackendEvent

    /// Creates an event.
    public init(time: Double, event: BackendEvent) {
        self.time = time
        self.event = event
    }

    /// The `kind` values of a replay file.
    public static let kinds = [
        "state", "browseStarted", "copyAdded", "copyRemoved", "copyResolved", "copyAddressesComplete", "copyFailed",
        "copyLimit", "found", "updated", "removed", "cacheExhausted", "allForNow", "resolveFailed", "resolvesPending",
        "statistics", "sourceProgress",
    ]

    /// The `state` values of a replay file.
    public static let states = ["connecting", "running", "daemonLost", "failed"]
}
