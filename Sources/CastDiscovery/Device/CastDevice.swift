/// A Google Cast receiver found on the network, typed from its DNS-SD record.
///
/// Mirrors the SDK's `GCKDevice`. Everything the device published is kept: the typed fields,
/// the undocumented TXT keys (raw) and the whole TXT record, plus every problem the lenient
/// validator recorded.
public struct CastDevice: Sendable, Hashable, Identifiable {
    /// The category every Cast device belongs to; the prefix of ``uniqueID``.
    public static let category = "googlecast"

    /// The receiver's id (TXT `id`); the instance name when the device published none.
    public var id: CastDeviceID
    /// The friendly name (TXT `fn`), UTF-8 with invalid bytes replaced; the instance name when
    /// the device published none.
    public var friendlyName: String
    /// The model name (TXT `md`), such as `Chromecast` or `Google Cast Group`.
    public var modelName: String?
    /// The capability bitmask (TXT `ca`).
    public var capabilities: CastCapabilities
    /// Idle, busy or unknown (TXT `st`).
    public var status: CastDeviceStatus
    /// The running app's status text (TXT `rs`); nil when idle or absent.
    public var statusText: String?
    /// The Cast protocol version (TXT `ve`).
    public var protocolVersion: Int?
    /// The icon path on the device's HTTP port 8008 (TXT `ic`).
    public var iconPath: String?
    /// Video, audio, group or dynamic group.
    public var kind: CastDeviceKind
    /// The DNS-SD instance name, unescaped.
    public var instanceName: String
    /// The SRV target host; for a group, the current leader's host.
    public var hostName: String
    /// The port the receiver listens on (8009 for devices, a high port for groups).
    public var port: UInt16
    /// Every address of the host, each tagged with its interface.
    public var addresses: [ServiceAddress]
    /// The address the user gave when the device was found by asking that host directly;
    /// nil when it was heard by multicast.
    public var knownHost: String?
    /// The TXT entries with no documented meaning (`cd`, `rm`, `bs`, `nf` and unknown keys),
    /// raw, in wire order.
    public var undocumentedEntries: [TXTEntry]
    /// The whole TXT record as received.
    public var txt: TXTRecord
    /// What the validator found wrong; empty for a well-formed device.
    public var problems: [DeviceProblem]

    /// `category:id`, the SDK's `uniqueID`: one per device whatever its instance names.
    public var uniqueID: String { "\(Self.category):\(id.normalized)" }

    /// The address a sender connects to: the first IPv4 address, else the first IPv6 one.
    public var networkAddress: ServiceAddress? {
        addresses.first { $0.family == .ipv4 } ?? addresses.first
    }

    /// Whether the device is a static or dynamic group.
    public var isGroup: Bool { kind.isGroup }

    /// The raw value of an undocumented TXT key (`rm`, `bs`, ...); first occurrence wins.
    public func undocumentedValue(forKey key: String) -> TXTValue? {
        let wanted = Array(key.utf8)
        return undocumentedEntries.first { $0.hasKey(wanted) }?.txtValue
    }

    /// The TXT keys the core turns into typed fields.
    public static let documentedKeys: Set<String> = ["id", "fn", "md", "ca", "st", "rs", "ve", "ic"]
}
