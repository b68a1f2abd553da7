import CastDiscovery

extension ReceiverEndpoint {
    /// The endpoint a sender connects to for `device`: its `CastDevice.networkAddress` (an
    /// IPv6 link-local one with its interface as the zone) and the port its SRV record gives;
    /// nil when the device has no address.
    public init?(device: CastDevice) {
        guard let address = device.networkAddress else { return nil }
        var host = address.address
        if address.isLinkLocalIPv6, address.zone == nil, let interface = address.interfaceName {
            host += "%\(interface)"
        }
        self.init(host: host, port: device.port)
    }
}
