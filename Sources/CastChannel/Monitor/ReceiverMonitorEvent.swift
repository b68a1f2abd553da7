/// A change in a watched device's Cast channel, as ``ReceiverMonitor/events`` gives it.
public enum ReceiverMonitorEvent: Sendable, Hashable {
    /// The device's status changed (or came for the first time): its new result.
    case status(uniqueID: String, ReceiverProbeResult)
    /// The device could not be reached, or its channel failed: the result says why.
    case unreachable(uniqueID: String, ReceiverProbeResult)
    /// A device that was unreachable answered again.
    case reachable(uniqueID: String, ReceiverProbeResult)
    /// A new channel's answer to the device-authentication challenge (or its absence), in the
    /// result's ``ReceiverProbeResult/deviceAuth``: once per connection, when the monitor asks.
    case deviceAuth(uniqueID: String, ReceiverProbeResult)

    /// The device the event is about.
    public var uniqueID: String {
        switch self {
        case .status(let id, _), .unreachable(let id, _), .reachable(let id, _), .deviceAuth(let id, _): id
        }
    }

    /// What the attempt behind the event gave.
    public var result: ReceiverProbeResult {
        switch self {
        case .status(_, let result), .unreachable(_, let result), .reachable(_, let result),
            .deviceAuth(_, let result):
            result
        }
    }
}
