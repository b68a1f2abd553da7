import CastDiscovery

/// One discovery event as `watch` and `serve` handle it: the device change it makes, if any,
/// and its JSON line, encoded once: the same bytes are stored for the collector (`--report`)
/// and printed (`watch --jsonl`).
struct DiscoveryStep: Sendable {
    var event: DiscoveryEvent
    /// The change a device event makes; nil for any other event.
    var change: WatchCommand.Printer.DeviceChange?
    /// The event's JSON line without its newline (``JSONOutput/bytes(_:format:)``), for a
    /// device event or a list of missed events; nil when no line is needed.
    var json: [UInt8]?
    /// The device list's generation after the event, when the events are numbered
    /// (``DiscoveryManager/subscribeWithGenerations()``).
    var generation: Int?
}
