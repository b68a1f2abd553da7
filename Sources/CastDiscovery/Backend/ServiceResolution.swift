/// What resolving one copy of an instance gave: host, port, one address and the TXT record.
public struct ServiceResolution: Sendable, Hashable {
    /// The SRV target host.
    public var hostName: String
    /// The SRV port.
    public var port: UInt16
    /// The address the host resolved to on that interface, tagged with the interface.
    public var address: ServiceAddress?
    /// The TXT record.
    public var txt: TXTRecord
    /// The address the user gave when the answer came from asking that host directly
    /// (known hosts); nil for an answer heard by multicast.
    public var knownHost: String?

    /// Creates a resolution.
    public init(hostName: String, port: UInt16, address: ServiceAddress?, txt: TXTRecord, knownHost: String? = nil) {
        self.hostName = hostName
        self.port = port
        self.address = address
        self.txt = txt
        self.knownHost = knownHost
    }
}
