/// One DNS-SD service to publish: an instance of a type, its subtypes, port and TXT record,
/// on the interfaces chosen.
public struct ServiceRegistration: Sendable, Hashable {
    /// The most TXT bytes a registration may carry (its wire format): what fits one mDNS packet
    /// on an Ethernet link beside the other records of an answer (RFC 6762 section 17).
    public static let maximumTXTBytes = 1300
    /// The most subtypes one registration may carry: avahi-daemon allows 32 entries per entry
    /// group (`entries-per-entry-group-max`), one of which is the service on each interface.
    public static let maximumSubtypes = 16
    /// The most services and subtypes one registration makes in all its interfaces (avahi-daemon's
    /// default `entries-per-entry-group-max`).
    public static let maximumEntries = 32

    /// The instance name (one DNS label, at most 63 bytes of UTF-8).
    public var instanceName: String
    /// The service type, `_googlecast._tcp`.
    public var serviceType: String
    /// The subtype labels (`_CC1AD845`), each published as `_CC1AD845._sub.` of the type.
    public var subtypes: [String]
    /// The port (not 0).
    public var port: UInt16
    /// The TXT strings, in the order they go on the wire.
    public var txt: [TXTEntry]
    /// The interfaces to publish on, by index; empty for every interface the daemon uses.
    public var interfaceIndexes: [UInt32]

    /// Creates a registration; ``validate()`` says whether a daemon can take it.
    public init(
        instanceName: String, serviceType: String, subtypes: [String] = [], port: UInt16,
        txt: [TXTEntry], interfaceIndexes: [UInt32] = []
    ) {
        self.instanceName = instanceName
        self.serviceType = serviceType
        self.subtypes = subtypes
        self.port = port
        self.txt = txt
        self.interfaceIndexes = interfaceIndexes
    }

    /// The subtype's full browse type, `_CC1AD845._sub._googlecast._tcp`.
    public func subtypeBrowseType(_ subtype: String) -> String { "\(subtype)._sub.\(serviceType)" }

    /// Throws a ``DiscoveryError`` of kind `badInput` that says what is wrong, when the
    /// registration breaks a rule of DNS-SD (RFC 6763) or of the limits above.
    public func validate() throws(DiscoveryError) {
        let name = SafeText.quoted(instanceName)
        func bad(_ message: String) -> DiscoveryError { DiscoveryError(kind: .badInput, message: message) }
        let nameBytes = instanceName.utf8.count
        guard (1...63).contains(nameBytes) else {
            throw bad("the instance name \(name) is \(nameBytes) bytes; a DNS label holds 1 to 63")
        }
        guard
            !instanceName.unicodeScalars.contains(where: {
                $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
            })
        else {
            throw bad("the instance name \(name) contains a control character")
        }
        guard port != 0 else { throw bad("\(name): port 0 cannot be published") }
        guard subtypes.count <= Self.maximumSubtypes else {
            throw bad("\(name): \(subtypes.count) subtypes, more than \(Self.maximumSubtypes)")
        }
        let entries = (1 + subtypes.count) * max(1, interfaceIndexes.count)
        guard entries <= Self.maximumEntries else {
            throw bad(
                "\(name): \(entries) records to publish (the service and \(subtypes.count) subtypes on \(max(1, interfaceIndexes.count)) interfaces), more than \(Self.maximumEntries)"
            )
        }
        for subtype in subtypes {
            let bytes = subtype.utf8.count
            guard subtype.hasPrefix("_"), (2...63).contains(bytes), !subtype.contains("."),
                !subtype.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F })
            else {
                throw bad(
                    "\(name): the subtype \(SafeText.quoted(subtype)) is not one DNS label of printable ASCII starting with \"_\""
                )
            }
        }
        var total = 0
        for entry in txt {
            guard (1...255).contains(entry.count) else {
                let shown = SafeText.quoted(String(decoding: entry.bytes.prefix(24), as: UTF8.self))
                throw bad("\(name): the TXT string \(shown) is \(entry.count) bytes; a TXT string holds 1 to 255")
            }
            total += 1 + entry.count
        }
        guard total <= Self.maximumTXTBytes else {
            throw bad("\(name): the TXT record is \(total) bytes, more than \(Self.maximumTXTBytes)")
        }
    }
}
