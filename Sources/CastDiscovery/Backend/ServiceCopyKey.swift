/// One copy of a service instance: the instance as seen on one interface over one IP protocol.
/// A daemon reports each instance once per (interface, protocol) it hears it on; a stack that
/// does not say the protocol (dns_sd) once per interface.
public struct ServiceCopyKey: Sendable, Hashable {
    /// The instance.
    public var service: ServiceKey
    /// The index of the interface the copy was seen on.
    public var interfaceIndex: Int32
    /// The IP protocol the copy was seen over; nil when the stack does not say.
    public var transport: ServiceAddress.Family?

    /// Creates a copy key.
    public init(service: ServiceKey, interfaceIndex: Int32, transport: ServiceAddress.Family?) {
        self.service = service
        self.interfaceIndex = interfaceIndex
        self.transport = transport
    }
}
