/// What resolving one copy of an instance gave: host, port, its addresses and the TXT record.
public struct ServiceResolution: Sendable, Hashable {
    /// The SRV target host.
    public var hostName: String
    /// The SRV port.
    public var port: UInt16
    /// The addresses the host resolved to on that interface, each tagged with the interface
    /// (one per family at most, as stacks report them); empty when none came yet.
    public var addresses: [ServiceAddress]
    /// The TXT record.
    public var txt: TXTRecord
    /// The address the user gave when the answer came from asking that host directly
    /// (known hosts); nil for an answer heard by multicast.
    public var knownHost: String?

    /// Creates a resolution with its addresses.
    public init(hostName: String, port: UInt16, addresses: [ServiceAddress], txt: TXTRecord, knownHost: String? = nil) {
        self.hostName = hostName
        self.port = port
        self.addresses = addresses
        self.txt = txt
        self.knownHost = knownHost
    }

    /// Creates a resolution with at most one address.
    public init(hostName: String, port: UInt16, address: ServiceAddress?, txt: TXTRecord, knownHost: String? = nil) {
        self.init(hostName: hostName, port: port, addresses: address.map { [$0] } ?? [], txt: txt, knownHost: knownHost)
    }
}
