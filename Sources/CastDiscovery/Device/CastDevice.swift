/// A Google Cast receiver found on the network, typed from its DNS-SD record.
///
/// Mirrors the SDK's `GCKDevice`. Everything the device published is kept: the typed fields,
/// the undocumented TXT keys (raw) and the whole TXT record, plus every problem the lenient
/// validator recorded. A device is made from a resolved service (``init(service:policy:)``) and
/// read, not edited: its derived fields (``kind``, ``problems``) always match the rest.
public struct CastDevice: Sendable, Hashable, Identifiable {
    /// The category every Cast device belongs to; the prefix of ``uniqueID``.
    public static let category = "googlecast"

    /// The receiver's id (TXT `id`); the instance name when the device published none.
    public internal(set) var id: CastDeviceID
    /// The friendly name (TXT `fn`), UTF-8 with invalid bytes replaced; the instance name when
    /// the device published none.
    public internal(set) var friendlyName: String
    /// The model name (TXT `md`), such as `Chromecast` or `Google Cast Group`.
    public internal(set) var modelName: String?
    /// The capability bitmask (TXT `ca`).
    public internal(set) var capabilities: CastCapabilities
    /// Idle, busy or unknown (TXT `st`).
    public internal(set) var status: CastDeviceStatus
    /// The running app's status text (TXT `rs`); nil when idle or absent.
    public internal(set) var statusText: String?
    /// The Cast protocol version (TXT `ve`).
    public internal(set) var protocolVersion: Int?
    /// The icon path on the device's HTTP port 8008 (TXT `ic`).
    public internal(set) var iconPath: String?
    /// Video, audio, group or dynamic group.
    public internal(set) var kind: CastDeviceKind
    /// The DNS-SD instance name, unescaped.
    public internal(set) var instanceName: String
    /// The SRV target host; for a group, the current leader's host.
    public internal(set) var hostName: String
    /// The port the receiver listens on (8009 for devices, a high port for groups).
    public internal(set) var port: UInt16
    /// Every address of the host, each tagged with its interface.
    public internal(set) var addresses: [ServiceAddress]
    /// The address the user gave when the device was found by asking that host directly;
    /// nil when it was heard by multicast.
    public internal(set) var knownHost: String?
    /// The whole TXT record as received.
    public internal(set) var txt: TXTRecord
    /// What the validator found wrong; empty for a well-formed device.
    public internal(set) var problems: [DeviceProblem]

    /// `category:id`, the SDK's `uniqueID`: one per device whatever its instance names.
    public var uniqueID: String { "\(Self.category):\(id.normalized)" }

    /// The address a sender connects to: the first IPv4 address, else the first IPv6 one.
    public var networkAddress: ServiceAddress? {
        addresses.first { $0.family == .ipv4 } ?? addresses.first
    }

    /// Whether the device is a static or dynamic group.
    public var isGroup: Bool { kind.isGroup }

    /// The TXT entries with no documented meaning (`cd`, `rm`, `bs`, `nf` and unknown keys),
    /// raw, in wire order.
    public var undocumentedEntries: [TXTEntry] {
        txt.entries.filter { !CastTXTFields.isDocumented($0) }
    }

    /// The device with only the addresses `isIncluded` keeps (a view through an interface or
    /// address-family filter); with none left it has the no-address problem.
    public func keepingAddresses(where isIncluded: (ServiceAddress) -> Bool) -> CastDevice {
        var kept = self
        kept.addresses = addresses.filter(isIncluded)
        if kept.addresses.isEmpty, !problems.contains(.noAddress) { kept.problems.append(.noAddress) }
        return kept
    }

    /// The raw value of an undocumented TXT key (`rm`, `bs`, ...); first occurrence wins.
    public func undocumentedValue(forKey key: String) -> TXTValue? {
        let wanted = Array(key.utf8)
        return txt.entries.first { !CastTXTFields.isDocumented($0) && $0.hasKey(wanted) }?.txtValue
    }

    /// The TXT keys the core turns into typed fields.
    public static let documentedKeys: Set<String> = Set(CastTXTFields.Key.allCases.map(\.name))
}
