/// A DNS-SD service instance as a browser and resolver report it: what the core turns into a
/// ``CastDevice``.
public struct ResolvedService: Sendable, Hashable {
    /// The instance name, unescaped (raw UTF-8 text, as Avahi's callbacks give it).
    public var instanceName: String
    /// The service type the instance belongs to (the base type, without subtype).
    public var serviceType: ServiceType
    /// The domain, normally `local`.
    public var domain: String
    /// The SRV target host name (`406c2bcd-d599-5755-059b-5bb045326056.local`).
    public var hostName: String
    /// The SRV port.
    public var port: UInt16
    /// Every address the host name resolved to, each tagged with its interface.
    public var addresses: [ServiceAddress]
    /// The TXT record.
    public var txt: TXTRecord
    /// The address the user gave when the service was found by asking that host directly
    /// (known hosts); nil when it was heard by multicast.
    public var knownHost: String?

    /// Creates a resolved service.
    public init(
        instanceName: String,
        serviceType: ServiceType = .googleCast,
        domain: String = "local",
        hostName: String,
        port: UInt16,
        addresses: [ServiceAddress],
        txt: TXTRecord,
        knownHost: String? = nil
    ) {
        self.instanceName = instanceName
        self.serviceType = serviceType
        self.domain = domain
        self.hostName = hostName
        self.port = port
        self.addresses = addresses
        self.txt = txt
        self.knownHost = knownHost
    }
}
