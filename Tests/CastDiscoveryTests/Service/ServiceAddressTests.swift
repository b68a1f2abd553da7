import CastDiscovery
import Testing

@Suite("ServiceAddress")
struct ServiceAddressTests {
    @Test("family, link-local and endpoint", arguments: [
        ("192.168.1.20", ServiceAddress.Family.ipv4, false, "192.168.1.20:8009"),
        ("fd00::40", .ipv6, false, "[fd00::40]:8009"),
        ("fe80::a6b1:c1ff:fe2d:1001%eth0", .ipv6, true, "[fe80::a6b1:c1ff:fe2d:1001%eth0]:8009"),
        ("FEBF::1", .ipv6, true, "[FEBF::1]:8009"),
        ("fec0::1", .ipv6, false, "[fec0::1]:8009"),
    ])
    func classify(text: String, family: ServiceAddress.Family, linkLocal: Bool, endpoint: String) {
        let address = ServiceAddress(text, interfaceName: "eth0", interfaceIndex: 2)
        #expect(address.family == family)
        #expect(address.isLinkLocalIPv6 == linkLocal)
        #expect(address.endpoint(port: 8009) == endpoint)
        #expect(address.interfaceName == "eth0" && address.interfaceIndex == 2)
    }

    @Test("a device's network address prefers IPv4")
    func preferIPv4() throws {
        let service = ResolvedService(
            instanceName: "x", hostName: "x.local", port: 8009,
            addresses: [ServiceAddress("fd00::1"), ServiceAddress("10.0.0.1")],
            txt: ["id=1", "fn=x", "ve=05", "ca=5", "st=0"])
        #expect(try CastDevice(service: service).networkAddress?.address == "10.0.0.1")
        var v6only = service
        v6only.addresses = [ServiceAddress("fd00::1")]
        #expect(try CastDevice(service: v6only).networkAddress?.address == "fd00::1")
    }
}
